class EngineRegistry:
    _engines = {}

    @classmethod
    def register(cls, backend):
        def decorator(engine_class):
            cls._engines[backend] = engine_class
            return engine_class

        return decorator

    @classmethod
    def get_engine_cls(cls, backend):
        return cls._engines[backend]
