import torch
from torch.distributed.fsdp import fully_shard
from transformers import AutoModelForCausalLM

from engine import GRPOEngine


def train_loop_per_worker(config):
    model = AutoModelForCausalLM.from_pretrained(config["model_path"])
    fully_shard(model)
    ref_model = AutoModelForCausalLM.from_pretrained(config["model_path"])
    ref_model.eval()
    fully_shard(ref_model)
    optimizer = torch.optim.AdamW(model.parameters())
    engine = GRPOEngine(model, ref_model, optimizer)
    for batch in config["batches"]:
        engine.train_step(batch)
