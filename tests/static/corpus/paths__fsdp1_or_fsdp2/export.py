import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def export_weights(model, path):
    with FSDP.summon_full_params(model, writeback=False, rank0_only=True):  # expect: FSD203
        state = {name: param.detach().cpu() for name, param in model.named_parameters()}
    torch.save(state, path)  # expect: FSD301
