from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from utils import modules_are_shared


def apply_fsdp(model, mesh, mp_policy: MixedPrecisionPolicy):
    """Blocks first; the embeddings and the head get units of their own when nothing ties them."""
    embed_tokens = model.model.embed_tokens
    lm_head = model.lm_head
    tied = modules_are_shared(embed_tokens, lm_head)
    for layer in model.model.layers:
        fully_shard(layer, mesh=mesh, mp_policy=mp_policy)
    if not tied:
        fully_shard(embed_tokens, mesh=mesh, mp_policy=mp_policy)
        fully_shard(lm_head, mesh=mesh, mp_policy=mp_policy, reshard_after_forward=False)  # expect: FSD104
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
    return model
