import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard
from transformers import AutoModelForCausalLM

from layers import get_layer_list


def setup_model(name):
    model = AutoModelForCausalLM.from_pretrained(name)
    for layer in get_layer_list(model):
        fully_shard(layer)
    fully_shard(model)
    return model


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    model = setup_model("gpt2")
    model(torch.zeros(1, 8, dtype=torch.long))
