import rl.engine.fsdp2  # noqa: F401  (registers the FSDP2 engine)
from rl.engine.registry import EngineRegistry


class ActorWorker:
    def __init__(self, config):
        self.config = config
        engine_cls = EngineRegistry.get_engine_cls(backend="fsdp2")
        self.engine = engine_cls(config)

    def init_model(self):
        self.engine.initialize()

    def save(self, path):
        self.engine.save_checkpoint(path)
