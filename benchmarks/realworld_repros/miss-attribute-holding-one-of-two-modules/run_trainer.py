import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import fully_shard

from trainer import Trainer


def run_trainer(model, batches, fsdp2: bool):
    if fsdp2:
        for block in model.blocks:
            fully_shard(block)
        fully_shard(model)
        fsdp_model = model
    else:
        fsdp_model = FSDP(model)
    optim = torch.optim.AdamW(fsdp_model.parameters())
    trainer = Trainer(fsdp_model=fsdp_model, optim=optim)
    for batch in batches:
        trainer.train_step(batch)
