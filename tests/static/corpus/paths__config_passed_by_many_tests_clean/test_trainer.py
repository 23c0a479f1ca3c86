"""Tests of the trainer under FSDP1, each with its own options; the parameters are compared
gathered, with FSDP1's `summon_full_params`."""

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

from config import FSDP2Options, FSDPOptions, ParallelConfig
from dist_utils import init_distributed
from model import Transformer
from trainer import Trainer


def _batches():
    return [(torch.randint(0, 128, (2, 16)), torch.randint(0, 128, (2, 16))) for _ in range(4)]


def test_fit():
    trainer = Trainer(Transformer(128, 64, 2), ParallelConfig(fsdp=FSDPOptions()), init_distributed())
    trainer.fit(_batches())
    with FSDP.summon_full_params(trainer.model):
        assert all(p.isfinite().all() for p in trainer.model.parameters())


def test_fit_compiled():
    trainer = Trainer(Transformer(128, 64, 2), ParallelConfig(fsdp=FSDPOptions()), init_distributed(), compile_model=True)
    trainer.fit(_batches())
    with FSDP.summon_full_params(trainer.model):
        assert all(p.isfinite().all() for p in trainer.model.parameters())


def test_fit_clipped():
    trainer = Trainer(Transformer(128, 64, 2), ParallelConfig(fsdp=FSDPOptions()), init_distributed(), clip_grad=True)
    trainer.fit(_batches())
    with FSDP.summon_full_params(trainer.model):
        assert all(p.abs().max() < 10 for p in trainer.model.parameters())


def test_fit_memory_logged():
    trainer = Trainer(Transformer(128, 64, 2), ParallelConfig(fsdp=FSDPOptions()), init_distributed(), log_memory=True)
    trainer.fit(_batches())
    with FSDP.summon_full_params(trainer.model):
        assert all(p.isfinite().all() for p in trainer.model.parameters())


def test_fit_compiled_and_clipped():
    trainer = Trainer(
        Transformer(128, 64, 2), ParallelConfig(fsdp=FSDPOptions()), init_distributed(), compile_model=True, clip_grad=True,
    )
    trainer.fit(_batches())
    with FSDP.summon_full_params(trainer.model):
        assert all(p.abs().max() < 10 for p in trainer.model.parameters())


def test_fit_synced_states():
    trainer = Trainer(Transformer(128, 64, 2), {"fsdp": FSDPOptions(sync_module_states=True)}, init_distributed(), log_memory=True, clip_grad=True)
    trainer.fit(_batches())
    with FSDP.summon_full_params(trainer.model):
        assert all(p.isfinite().all() for p in trainer.model.parameters())


def test_fit_from_dict():
    trainer = Trainer(Transformer(128, 64, 2), {"fsdp": FSDPOptions()}, init_distributed(), compile_model=True, log_memory=True)
    trainer.fit(_batches())
    with FSDP.summon_full_params(trainer.model):
        assert all(p.isfinite().all() for p in trainer.model.parameters())


def test_fit_everything():
    trainer = Trainer(
        Transformer(128, 64, 2), {"fsdp": FSDPOptions()}, init_distributed(), compile_model=True, clip_grad=True, log_memory=True,
    )
    trainer.fit(_batches())
    with FSDP.summon_full_params(trainer.model):
        assert all(p.abs().max() < 10 for p in trainer.model.parameters())


def test_fit_per_parameter_sharding():
    trainer = Trainer(Transformer(128, 64, 2), ParallelConfig(fsdp2=FSDP2Options()), init_distributed(), clip_grad=True, log_memory=True)
    trainer.fit(_batches())
    for name, param in trainer.model.named_parameters():
        assert param.full_tensor().isfinite().all(), name


def test_fit_per_parameter_sharding_from_dict():
    trainer = Trainer(Transformer(128, 64, 2), {"fsdp": FSDP2Options()}, init_distributed(), compile_model=True, clip_grad=True)
    trainer.fit(_batches())
    for name, param in trainer.model.named_parameters():
        assert param.full_tensor().isfinite().all(), name
