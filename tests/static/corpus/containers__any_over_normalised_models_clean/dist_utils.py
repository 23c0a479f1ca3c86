from torch.distributed.fsdp import FSDPModule


def is_distributed_model(model):
    if isinstance(model, FSDPModule):
        return True
    return False
