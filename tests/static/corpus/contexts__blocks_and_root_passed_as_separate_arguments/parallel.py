from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def apply_fsdp(root, blocks, mesh, mp_policy):
    """One unit per block the caller collected, then the root for what is left (embeddings,
    the head): the blocks come in their own argument, so that the caller decides which."""
    for block in blocks:
        fully_shard(block, mesh=mesh, mp_policy=mp_policy)
    fully_shard(root, mesh=mesh, mp_policy=mp_policy)  # expect: FSD101


def parallelize(model, draft, world_size: int):
    """The draft's encoder blocks handed in place of the target's: the target's encoder is one
    unit, its blocks never sharded."""
    mesh = init_device_mesh("cuda", (world_size,))
    policy = MixedPrecisionPolicy()
    apply_fsdp(model.encoder, draft.encoder.layers, mesh, policy)
    apply_fsdp(model, model.layers, mesh, policy)
    apply_fsdp(draft, draft.layers, mesh, policy)
    return model
