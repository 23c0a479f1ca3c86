from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def apply_fsdp(stages, mesh, policy: MixedPrecisionPolicy):
    """Each stage's layers, then the experts inside each layer: the layer's unit already holds
    the experts' parameters when they are sharded."""
    for i in range(len(stages)):
        fully_shard(stages[i].embed, mesh=mesh, mp_policy=policy)
        for j in range(len(stages[i].layers)):
            fully_shard(stages[i].layers[j], mesh=mesh, mp_policy=policy)
            fully_shard(stages[i].layers[j].experts, mesh=mesh, mp_policy=policy)  # expect: FSD102
        fully_shard(stages[i], mesh=mesh, mp_policy=policy)
    return stages
