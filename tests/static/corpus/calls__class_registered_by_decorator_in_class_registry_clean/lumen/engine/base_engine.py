class BaseEngine:
    def __init__(self, config):
        self.config = config
        self.module = None

    def initialize(self):
        raise NotImplementedError

    def save_checkpoint(self, path):
        raise NotImplementedError


class EngineRegistry:
    """Maps a backend name to the engine class that implements it."""

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
            raise KeyError(f"no engine for backend {backend}")
        return cls._engines[backend]
