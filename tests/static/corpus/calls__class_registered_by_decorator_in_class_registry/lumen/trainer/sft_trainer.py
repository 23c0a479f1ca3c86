import torch.distributed as dist
from torch.distributed.fsdp import FSDPModule

import lumen.engine.fsdp_engine  # noqa: F401  (registers the engines)
from lumen.engine.base_engine import EngineRegistry


class SFTTrainer:
    def __init__(self, config):
        dist.init_process_group("nccl")
        engine_cls = EngineRegistry.get_engine_cls(backend="fsdp2")
        self.engine = engine_cls(config)
        self.engine.initialize()
        assert isinstance(self.engine.module, FSDPModule)
        self.config = config

    def fit(self, loader):
        for step, batch in enumerate(loader):
            self.engine.train_step(batch.cuda())
            if step % self.config.save_every == 0:
                self.engine.save_checkpoint(f"{self.config.output_dir}/step_{step}.pt")
