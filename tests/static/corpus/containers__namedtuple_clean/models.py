from typing import NamedTuple

import torch
from torch import nn
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from transformers import AutoModelForCausalLM


class Models(NamedTuple):
    policy: nn.Module
    reference: nn.Module


def build_models(name: str, mesh) -> Models:
    policy = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.float32)
    reference = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.float32)
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for layer in policy.model.layers:
        fully_shard(layer, mesh=mesh, mp_policy=mp_policy)
    fully_shard(policy, mesh=mesh, mp_policy=mp_policy)
    return Models(policy=policy, reference=reference)
