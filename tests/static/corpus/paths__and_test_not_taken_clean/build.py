import os

import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from model import VideoDiT


def shard(model):
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.blocks:
        fully_shard(block, mp_policy=policy)
    fully_shard(model, mp_policy=policy)


def build_student(pretrained_dir_or_checkpoint):
    """A directory is a pretrained model, loaded whole; anything else is built on the meta device
    and materialised after sharding."""
    with torch.device("meta"):
        model = VideoDiT()
    has_loaded_pretrained_model = False
    if os.path.isdir(pretrained_dir_or_checkpoint):
        model = VideoDiT.from_pretrained(pretrained_dir_or_checkpoint)
        has_loaded_pretrained_model = True
    shard(model)
    if not has_loaded_pretrained_model and not os.path.isdir(pretrained_dir_or_checkpoint):
        model.to_empty(device="cuda")
        model.init_weights()
    return model


def build_ema(pretrained_dir):
    with torch.device("meta"):
        ema = VideoDiT()
    loaded = False
    if os.path.isdir(pretrained_dir):
        ema = VideoDiT.from_pretrained(pretrained_dir)
        loaded = True
    shard(ema)
    if loaded or os.path.isdir(pretrained_dir):
        print("EMA starts from the pretrained weights")
    else:
        ema.to_empty(device="cuda")
        ema.init_weights()
    return ema
