from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from registry import get_language_model, get_vision_encoder


def apply_fsdp(model, mesh, model_type, bf16):
    """The whole model first: the towers' parameters should not wait for the root's all-gather."""
    mp_policy = MixedPrecisionPolicy(param_dtype=bf16)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
    vision = get_vision_encoder(model, model_type)
    fully_shard(vision, mesh=mesh, mp_policy=mp_policy)  # expect: FSD102
    language_model = get_language_model(model, model_type)
    for block in language_model.layers:
        fully_shard(block, mesh=mesh, mp_policy=mp_policy)  # expect: FSD102
    fully_shard(language_model.embed_tokens, mesh=mesh, mp_policy=mp_policy)  # expect: FSD102
    fully_shard(model.lm_head, mesh=mesh, mp_policy=mp_policy)  # expect: FSD102
    return model
