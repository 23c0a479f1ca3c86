"""Trainers under each parallelism strategy, built by one helper from the strategy's name (a
string, the same context for every call) and compared after a step; the FSDP1 trainers'
parameters are gathered with FSDP1's `summon_full_params`."""

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

from config import FSDPOptions, ParallelConfig
from dist_utils import init_distributed
from model import Transformer
from trainer import Trainer


def _batches():
    return [(torch.randint(0, 128, (2, 16)), torch.randint(0, 128, (2, 16))) for _ in range(4)]


def get_base_trainer(parallel, clip_grad=None):
    """One trainer for a small transformer, whatever its parallelism."""
    torch.manual_seed(44)
    return Trainer(Transformer(128, 64, 2), parallel, init_distributed(), clip_grad=clip_grad)


def get_trainer(strategy):
    if strategy == "ddp":
        parallel = None
    elif strategy == "fsdp":
        parallel = ParallelConfig(fsdp=FSDPOptions(use_orig_params=True))
    elif strategy == "fsdp-synced":
        parallel = ParallelConfig(fsdp=FSDPOptions(sync_module_states=True))
    else:
        raise ValueError(f"unknown strategy {strategy}")
    return get_base_trainer(parallel)


def gathered(trainer):
    with FSDP.summon_full_params(trainer.model):
        return {name: param.detach().clone() for name, param in trainer.model.named_parameters()}


def test_strategies_agree():
    reference = get_trainer("ddp")
    synced = get_trainer("fsdp-synced")
    for trainer in (reference, synced):
        trainer.fit(_batches())
    for name, param in gathered(synced).items():
        assert torch.allclose(param, dict(reference.model.named_parameters())[name])
