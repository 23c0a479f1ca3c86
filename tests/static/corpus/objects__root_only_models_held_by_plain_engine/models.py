import torch
from transformers import AutoModelForCausalLM


def load_causal_lm(path: str):
    model = AutoModelForCausalLM.from_pretrained(path, torch_dtype=torch.bfloat16)
    model.config.use_cache = False
    return model
