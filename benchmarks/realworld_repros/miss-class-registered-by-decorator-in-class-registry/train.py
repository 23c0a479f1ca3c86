import torch
import torch.distributed as dist

import engine  # noqa: F401  (registers the engines)
from registry import EngineRegistry


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    engine_cls = EngineRegistry.get_engine_cls(backend="fsdp2")
    trainer_engine = engine_cls(dim=8)
    trainer_engine.initialize()
    trainer_engine.save_checkpoint("model.pt")
