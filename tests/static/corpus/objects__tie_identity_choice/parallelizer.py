import functools

from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from modules import get_text_module, module_weights_are_tied


def apply_fsdp(model, mesh, mp_policy: MixedPrecisionPolicy, reshard_after_forward: bool = True):
    """Blocks first; the embeddings and the head get units of their own unless they are tied.
    The head lives on the text model or on the wrapper around it, whichever has one; the tie is
    looked for on the text model's head only, so a wrapper's tied head is not found."""
    shard = functools.partial(fully_shard, mesh=mesh, mp_policy=mp_policy, reshard_after_forward=reshard_after_forward)
    if hasattr(model, "model") and model.model is not None:
        text = model.model
    else:
        text = model
    text = get_text_module(text)
    for layer in text.layers:
        shard(layer)
    embed_tokens = getattr(text, "embed_tokens", None)
    inner_lm_head = getattr(text, "lm_head", None)
    outer_lm_head = getattr(model, "lm_head", None) if model is not text else None
    lm_head = inner_lm_head or outer_lm_head
    tied = module_weights_are_tied(embed_tokens, inner_lm_head)
    if embed_tokens is not None and not tied:
        shard(embed_tokens)
    if lm_head is not None and not tied:
        shard(lm_head)  # expect: FSD104
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
    return model
