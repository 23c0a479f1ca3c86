import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def shard_language_model(model, mesh):
    config = {"mesh": mesh, "mp_policy": MixedPrecisionPolicy(param_dtype=torch.bfloat16)}
    tied = getattr(model.config, "tie_word_embeddings", False)
    for block in model.model.layers:
        fully_shard(block, **config)
    if not tied:
        fully_shard(model.model.embed_tokens, **config)
    fully_shard(model.lm_head, **config)
    fully_shard(model, **config)
    return model
