from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def apply_fsdp(stages, mesh, policy: MixedPrecisionPolicy):
    """Each stage bottom-up: its embedding, each layer's experts then the layer, then the stage."""
    for i in range(len(stages)):
        fully_shard(stages[i].embed, mesh=mesh, mp_policy=policy)
        for j in range(len(stages[i].layers)):
            fully_shard(stages[i].layers[j].experts, mesh=mesh, mp_policy=policy)
            fully_shard(stages[i].layers[j], mesh=mesh, mp_policy=policy)
        fully_shard(stages[i], mesh=mesh, mp_policy=policy)
    return stages
