from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

SUPPORTED = ("net", "net-tied")


def prepare_model_for_distributed(model, model_type: str, mesh, mp_policy: MixedPrecisionPolicy):
    """One unit per block for the model types we know, then the root."""
    if model_type in SUPPORTED:
        for block in model.blocks:
            fully_shard(block, mesh=mesh, mp_policy=mp_policy)
    elif model_type == "head-only":
        fully_shard(model.head, mesh=mesh, mp_policy=mp_policy)
    else:
        raise ValueError(f"no sharding plan for {model_type!r}")
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
    return model
