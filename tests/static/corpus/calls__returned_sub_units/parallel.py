from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def shard_towers(model, mesh, mp_policy: MixedPrecisionPolicy):
    """Each encoder block is a unit, then each tower."""
    for tower in (model.image_tower, model.text_tower):
        for block in tower.backbone.blocks:
            fully_shard(block, mesh=mesh, mp_policy=mp_policy)
        fully_shard(tower.backbone, mesh=mesh, mp_policy=mp_policy)
        fully_shard(tower, mesh=mesh, mp_policy=mp_policy)
