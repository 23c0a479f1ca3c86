import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from transformers import AutoModelForCausalLM


def build_policy(model_path):
    model = AutoModelForCausalLM.from_pretrained(model_path, torch_dtype=torch.bfloat16)
    model.gradient_checkpointing_enable()
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.bfloat16)
    fully_shard(model, mp_policy=mp_policy)
    return model


def main(model_path):
    policy = build_policy(model_path)
    optimizer = torch.optim.AdamW(policy.parameters())
    return policy, optimizer
