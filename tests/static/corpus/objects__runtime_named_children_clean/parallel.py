from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from registry import get_language_model, get_vision_encoder


def apply_fsdp(model, mesh, model_type, bf16):
    """Bottom-up: the vision tower is one unit, each text layer one, then the rest in the root's."""
    mp_policy = MixedPrecisionPolicy(param_dtype=bf16)
    vision = get_vision_encoder(model, model_type)
    fully_shard(vision, mesh=mesh, mp_policy=mp_policy)
    language_model = get_language_model(model, model_type)
    for block in language_model.layers:
        fully_shard(block, mesh=mesh, mp_policy=mp_policy)
    fully_shard(language_model.embed_tokens, mesh=mesh, mp_policy=mp_policy)
    fully_shard(model.lm_head, mesh=mesh, mp_policy=mp_policy)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
    return model
