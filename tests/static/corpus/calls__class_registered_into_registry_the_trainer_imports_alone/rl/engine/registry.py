class EngineRegistry:
    """Training engines register themselves by backend: `@EngineRegistry.register(backend="fsdp2")`."""

    _engines = {}

    @classmethod
    def register(cls, backend):
        def decorator(engine_class):
            cls._engines[backend] = engine_class
            return engine_class

        return decorator

    @classmethod
    def get_engine_cls(cls, backend):
        if backend not in cls._engines:
            raise ValueError(f"no engine for backend {backend}")
        return cls._engines[backend]
