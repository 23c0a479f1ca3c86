from typing import Any

# Declared for type checkers, bound by the import below (or None without torch.distributed).
fully_shard: Any
try:
    from torch.distributed.fsdp import fully_shard

    HAS_FSDP2 = True
except ImportError:
    fully_shard = None
    HAS_FSDP2 = False


def apply_fsdp2(model):
    if not HAS_FSDP2:
        raise RuntimeError("FSDP2 needs torch.distributed")
    fully_shard(model)
    for block in model.model.layers:
        fully_shard(block)
    return model
