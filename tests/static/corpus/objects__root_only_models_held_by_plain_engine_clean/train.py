import torch
from torch.distributed.fsdp import MixedPrecisionPolicy

from engine import GRPOEngine
from models import load_causal_lm
from parallel import shard_decoder


def train_loop_per_worker(config):
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    model = load_causal_lm(config["model_path"])
    model = shard_decoder(model, mp_policy)
    ref_model = load_causal_lm(config["model_path"])
    ref_model.eval()
    ref_model = shard_decoder(ref_model, mp_policy)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"])
    engine = GRPOEngine(model, ref_model, optimizer, config)
    for input_ids, advantages in config["batches"]:
        engine.train_step(input_ids, advantages)
