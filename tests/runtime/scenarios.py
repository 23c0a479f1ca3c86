"""Training scenarios run on 2 real gloo ranks: one violation or one correct pattern each.

``run_scenarios`` runs a list of them inside one process group and returns, per scenario, the
contract error raised (its code), the contract warnings emitted and any other exception, so
that one spawn covers the whole catalogue. Each scenario must fail or succeed at the same
point on both ranks, so no collective is left waiting when it ends.
"""

import contextlib
import os
import threading
import time
import warnings
from typing import Any, Callable, Dict, List

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.nn as nn
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, set_model_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import distribute_tensor
from torch.distributed.fsdp import (
    CPUOffload,
    FullyShardedDataParallel,
    MixedPrecision,
    MixedPrecisionPolicy,
    fully_shard,
    register_fsdp_forward_method,
)
from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import checkpoint_wrapper
from torch.utils.checkpoint import checkpoint

import fsdp_lint.runtime
from fsdp_lint.runtime_errors import FSDPContractError, FSDPContractWarning

DIM = 16
# How every block is built, set per job: as is, under activation checkpointing as torchtitan
# and accelerate apply it (checkpoint_wrapper before fully_shard), or compiled before fully_shard.
VARIANTS = ("plain", "checkpoint_wrapper", "compiled")
VARIANT = "plain"


def wrap_block(block: nn.Module) -> nn.Module:
    if VARIANT == "checkpoint_wrapper":
        return checkpoint_wrapper(block)
    if VARIANT == "compiled":
        return torch.compile(block, backend="eager")
    return block


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(DIM, DIM)
        self.fc2 = nn.Linear(DIM, DIM)

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return h + self.fc2(torch.relu(self.fc1(h)))


class Model(nn.Module):
    def __init__(self, blocks: int = 3) -> None:
        super().__init__()
        self.inp = nn.Linear(8, DIM)
        self.layers = nn.ModuleList(wrap_block(Block()) for _ in range(blocks))
        self.out = nn.Linear(DIM, 1)
        self.checkpointed = False
        self.bypass_child = False
        self.reverse_on_rank1 = False
        self.without_head = False
        self.layer_not_block = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.inp(x)
        blocks = list(self.layers)
        if self.reverse_on_rank1 and dist.get_rank() == 1:
            blocks.reverse()
        for i, block in enumerate(blocks):
            if self.bypass_child and i == 0:
                h = block.forward(h)
            elif self.layer_not_block and i == 0:
                h = block.fc1(h)
            elif self.checkpointed:
                h = checkpoint(block, h, use_reentrant=False)
            else:
                h = block(h)
        return h if self.without_head else self.out(h)

    def generate(self, x: torch.Tensor) -> torch.Tensor:
        return self.forward(x).sigmoid()


class TiedModel(nn.Module):
    """A language-model shape: the output head shares the embedding's weight."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(10, DIM)
        self.layers = nn.ModuleList(wrap_block(Block()) for _ in range(2))
        self.head = nn.Linear(DIM, 10, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h = self.emb(tokens)
        for block in self.layers:
            h = block(h)
        return self.head(h)


def tokens(rank: int) -> torch.Tensor:
    return torch.randint(0, 10, (4, 3), generator=torch.Generator().manual_seed(rank))


def build(seed: int = 0, shard: bool = True, **shard_kwargs: Any) -> Model:
    torch.manual_seed(seed)
    model = Model()
    if shard:
        for block in model.layers:
            fully_shard(block, **shard_kwargs)
        fully_shard(model, **shard_kwargs)
    return model


def batch(rank: int, step: int = 0) -> torch.Tensor:
    return torch.randn(4, 8, generator=torch.Generator().manual_seed(100 * step + rank))


def train(model: nn.Module, optimizer: torch.optim.Optimizer, rank: int, steps: int = 3) -> List[float]:
    losses = []
    for step in range(steps):
        loss = model(batch(rank, step)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses


# --- violations ------------------------------------------------------------------------------


def fsd201_direct_forward(rank: int, tmp: str) -> None:
    build().forward(batch(rank))  # noqa: FSD201 (intentional violation)


def fsd201_after_nograd_forward(rank: int, tmp: str) -> None:
    model = build()
    with torch.no_grad():
        model(batch(rank))
    model.forward(batch(rank)).sum().backward()  # noqa: FSD201 (intentional violation)


def fsd201_after_unshard(rank: int, tmp: str) -> None:
    model = build()
    model.unshard()
    model.forward(batch(rank)).sum().backward()  # noqa: FSD201 (intentional violation)


def fsd201_child_forward(rank: int, tmp: str) -> None:
    model = build()
    model.bypass_child = True
    model(batch(rank))


def fsd101_root_only(rank: int, tmp: str) -> None:
    torch.manual_seed(0)
    model = Model()
    fully_shard(model)  # noqa: FSD101 (intentional violation)
    model(batch(rank)).sum().backward()


def fsd102_child_after_parent(rank: int, tmp: str) -> None:
    model = Model()
    fully_shard(model)  # noqa: FSD101 (intentional violation)
    fully_shard(model.layers[0])  # noqa: FSD102 (intentional violation)


def fsd202_before_shard(rank: int, tmp: str) -> None:
    model = build(shard=False)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)  # noqa: FSD202 (intentional violation)
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    train(model, optimizer, rank, steps=1)


def fsd202_after_forward(rank: int, tmp: str) -> None:
    model = build()
    model(batch(rank))
    torch.optim.AdamW(model.parameters())


def fsd301_save(rank: int, tmp: str) -> bool:
    """Every rank writes its shards into one file: the last writer wins."""
    model = build()
    path = os.path.join(tmp, "sharded.pt")
    try:
        torch.save({"model": model.state_dict()}, path)  # noqa: FSD301 (intentional violation)
    finally:
        written = os.path.exists(path)
    return written


def fsd301_save_nothing_written(rank: int, tmp: str) -> bool:
    """Raise mode: the file must not exist afterwards."""
    path = os.path.join(tmp, "nothing.pt")
    try:
        torch.save(build().state_dict(), path)  # noqa: FSD301 (intentional violation)
    except FSDPContractError:
        return not os.path.exists(path)
    return False


def fsd105_to_empty_without_init(rank: int, tmp: str) -> None:
    with torch.device("meta"):
        model = Model()
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    model.to_empty(device="cpu")
    model(batch(rank))  # noqa: FSD105 (intentional violation)


def fsd105_still_on_meta(rank: int, tmp: str) -> None:
    with torch.device("meta"):
        model = Model()
    model.register_buffer("scale", torch.ones(DIM, device="meta"))
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    model(batch(rank))  # noqa: FSD105 (intentional violation)


def fsd204_recast(rank: int, tmp: str) -> None:
    """A cast once the units ran (lazily initialised): torch keeps its fp32 record of each
    parameter, and the next forward mixes dtypes."""
    model = build()
    model(batch(rank))
    model.to(torch.float64)  # noqa: FSD204 (intentional violation)
    model(batch(rank).double())


def fsd204_replaced(rank: int, tmp: str) -> None:
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)  # noqa: FSD202 (intentional: the parameter replaced below)
    train(model, optimizer, rank, steps=1)
    model.layers[1].fc1.weight = nn.Parameter(torch.zeros(DIM, DIM))  # noqa: FSD204 (intentional violation)
    model(batch(rank))


def fsd203_no_sync(rank: int, tmp: str) -> bool:
    model = build()
    if hasattr(model, "no_sync"):
        return False
    with model.no_sync():
        pass
    return True


def fsd203_summon_full_params(rank: int, tmp: str) -> None:
    model = build()
    with FullyShardedDataParallel.summon_full_params(model):  # noqa: FSD203 (intentional violation)
        pass


def fsd203_clip_grad_norm(rank: int, tmp: str) -> None:
    FullyShardedDataParallel.clip_grad_norm_(build(), 1.0)  # noqa: FSD203 (intentional violation)


def fsd203_state_dict_type(rank: int, tmp: str) -> None:
    from torch.distributed.fsdp import StateDictType

    full = StateDictType.FULL_STATE_DICT
    with FullyShardedDataParallel.state_dict_type(build(), full):  # noqa: FSD203 (intentional violation)
        pass


def fsd203_optim_state_dict_to_load(rank: int, tmp: str) -> None:
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    FullyShardedDataParallel.optim_state_dict_to_load(model, optimizer, optimizer.state_dict())  # noqa: FSD203 (intentional violation)


def fsd203_shard_full_optim_state_dict(rank: int, tmp: str) -> None:
    model = build()
    FullyShardedDataParallel.shard_full_optim_state_dict({"state": {}, "param_groups": []}, model=model)  # noqa: FSD203 (intentional violation)


def fsd103_blocks_only(rank: int, tmp: str) -> List[float]:
    model = build(shard=False)
    for block in model.layers:
        fully_shard(block)  # noqa: FSD103 (intentional violation)
    return train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=1)


def fsd104_tied_split(rank: int, tmp: str) -> None:
    torch.manual_seed(0)
    model = TiedModel()
    for block in model.layers:
        fully_shard(block)
    fully_shard(model.emb)
    fully_shard(model)  # noqa: FSD104 (intentional violation)
    model(tokens(rank)).sum().backward()


def fsd107_fsdp1_mixed_precision(rank: int, tmp: str) -> None:
    model = build(mp_policy=MixedPrecision(param_dtype=torch.bfloat16))
    model(batch(rank)).sum().backward()


def fsd107_fsdp1_cpu_offload(rank: int, tmp: str) -> List[float]:
    model = build(offload_policy=CPUOffload(offload_params=True))
    return train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=1)


def fsd107_root_without_policy(rank: int, tmp: str) -> None:
    torch.manual_seed(0)
    model = Model()
    for block in model.layers:
        fully_shard(block, mp_policy=MixedPrecisionPolicy(param_dtype=torch.bfloat16))
    fully_shard(model)  # noqa: FSD107 (intentional violation)
    model(batch(rank)).sum().backward()


def fsd107_low_precision_reduce(rank: int, tmp: str) -> List[float]:
    model = build(mp_policy=MixedPrecisionPolicy(reduce_dtype=torch.bfloat16))
    return train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=1)


def clean_sharding_order(rank: int, tmp: str) -> List[float]:
    """The same units sharded in another order per rank: FSDP's collectives follow the forward, not fully_shard."""
    model = build(shard=False)
    for block in (model.layers if rank == 0 else reversed(model.layers)):
        fully_shard(block)
    fully_shard(model)
    return train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=1)


def fsd108_forward_order(rank: int, tmp: str) -> None:
    """Raise mode only: rank 1 runs the blocks backwards; unguarded their all-gathers pair up wrongly."""
    model = build()
    model.reverse_on_rank1 = True
    model(batch(rank)).sum().backward()


def fsd108_different_units(rank: int, tmp: str) -> None:
    """Raise mode only: unguarded, the mismatched all-gathers would crash or hang."""
    model = build(shard=False)
    for i, block in enumerate(model.layers):
        if i != 2 or rank == 0:
            fully_shard(block)
    fully_shard(model)
    model(batch(rank))


def fsd108_different_mesh(rank: int, tmp: str) -> None:
    """Raise mode only: each rank builds a mesh of its own."""
    mesh = init_device_mesh("cpu", (2,), mesh_dim_names=("dp",) if rank == 0 else ("shard",))
    build(mesh=mesh)(batch(rank))


def fsd205_sync_left_off(rank: int, tmp: str) -> None:
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model.set_requires_gradient_sync(False)  # noqa: FSD205 (intentional violation)
    model(batch(rank)).sum().backward()
    optimizer.step()


def fsd205_sync_enabled_after_backward(rank: int, tmp: str) -> None:
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model.set_requires_gradient_sync(False)
    model(batch(rank)).sum().backward()
    model.set_requires_gradient_sync(True)
    optimizer.step()


def fsd201_submodule_outside_its_unit(rank: int, tmp: str) -> None:
    """The root's own input layer called on its own, while the root is sharded."""
    model = build()
    model.inp(batch(rank))


def fsd201_block_submodule_outside_its_unit(rank: int, tmp: str) -> None:
    """The root's forward calls a block's layer instead of the block."""
    model = build()
    model.layer_not_block = True
    model(batch(rank))


def fsd201_block_before_root(rank: int, tmp: str) -> None:
    model = build()
    model.layers[0](torch.randn(2, DIM))
    model(batch(rank))


def fsd206_full_state_dict_on_rank0(rank: int, tmp: str) -> None:
    """Raise mode only: rank 0 gathers a full state dict alone while rank 1 goes on to clip."""
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, optimizer, rank, steps=1)
    model(batch(rank)).sum().backward()
    if rank == 0:
        get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))  # noqa: FSD206 (intentional violation)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)


def fsd206_checkpoint_before_first_forward(rank: int, tmp: str) -> None:
    """Raise mode only: rank 0 saves a DCP checkpoint alone while rank 1 starts training."""
    model = build()
    if rank == 0:
        dcp.save({"model": get_model_state_dict(model)},  # noqa: FSD206 (intentional violation)
                 checkpoint_id=os.path.join(tmp, "rank0_only"))
    model(batch(rank))


def fsd206_full_tensor_on_rank0(rank: int, tmp: str) -> None:
    """Raise mode only: rank 0 gathers one parameter alone while rank 1 goes on to its next forward."""
    model = build()
    model(batch(rank)).sum().backward()
    if rank == 0:
        model.layers[0].fc1.weight.full_tensor()  # noqa: FSD206 (intentional violation)
    dcp.save({"model": get_model_state_dict(model)}, checkpoint_id=os.path.join(tmp, "after_full_tensor"))


def fsd302_plain_load(rank: int, tmp: str) -> None:
    full = build(shard=False).state_dict()
    build(seed=1).load_state_dict(full)  # noqa: FSD302 (intentional violation)


# --- correct patterns --------------------------------------------------------------------------


def clean_recast_before_first_forward(rank: int, tmp: str) -> List[float]:
    """A cast between `fully_shard` and the first forward: the lazy init adopts the parameters as
    they are then, dtype included (torch 2.13), and training matches an unsharded model cast the
    same way."""
    model, reference = build(), build(shard=False)
    model.to(torch.float64)  # before the first forward: the lazy init adopts it
    reference.to(torch.float64)
    for net in (model, reference):
        optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
        for step in range(2):
            net(batch(0, step).double()).pow(2).mean().backward()  # the same batch on both ranks
            optimizer.step()
            optimizer.zero_grad()
    for sharded, plain in zip(model.parameters(), reference.parameters()):
        assert sharded.dtype == torch.float64 and torch.allclose(sharded.full_tensor(), plain), "the cast was not adopted"
    return []


def clean_training(rank: int, tmp: str) -> List[float]:
    """Bottom-up sharding, optimizer after, accumulation, prefetching, AC, a registered method."""
    model = build()
    model.checkpointed = True
    blocks = list(model.layers)
    for before, after in zip(blocks, blocks[1:]):
        before.set_modules_to_forward_prefetch([after])
        after.set_modules_to_backward_prefetch([before])
    register_fsdp_forward_method(model, "generate")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    losses = []
    for step in range(2):
        for micro in range(2):
            model.set_requires_gradient_sync(micro == 1)
            loss = model(batch(rank, 2 * step + micro)).pow(2).mean()
            loss.backward()
            losses.append(loss.item())
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
    with torch.no_grad():
        model.generate(batch(rank))
    model.reshard()
    return losses


def clean_mixed_precision(rank: int, tmp: str) -> List[float]:
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    model = build(mp_policy=policy)
    return train(model, torch.optim.AdamW(model.parameters()), rank, steps=2)


def clean_checkpointing(rank: int, tmp: str) -> None:
    """DCP save/load, and a full state dict gathered on every rank and saved on rank 0."""
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, optimizer, rank, steps=1)
    dcp.save({"model": get_model_state_dict(model)}, checkpoint_id=os.path.join(tmp, "dcp"))
    restored = build(seed=1)
    state = {"model": get_model_state_dict(restored)}
    dcp.load(state, checkpoint_id=os.path.join(tmp, "dcp"))
    set_model_state_dict(restored, state["model"])
    full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    if rank == 0:
        torch.save(full, os.path.join(tmp, "full.pt"))
    train(restored, torch.optim.SGD(restored.parameters(), lr=0.1), rank, steps=1)


def clean_meta_init(rank: int, tmp: str) -> List[float]:
    with torch.device("meta"):
        model = Model()
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    model.to_empty(device="cpu")
    model.inp.reset_parameters()
    model.out.reset_parameters()
    for block in model.layers:  # through checkpoint_wrapper's and torch.compile's attribute forwarding
        block.fc1.reset_parameters()
        block.fc2.reset_parameters()
    return train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=1)


def clean_compile(rank: int, tmp: str) -> List[float]:
    torch.manual_seed(0)
    model = Model()
    for block in model.layers:
        block.compile(backend="eager")
        fully_shard(block)
    fully_shard(model)
    return train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=2)


def clean_compile_root(rank: int, tmp: str) -> List[float]:
    model = build()
    compiled = torch.compile(model, backend="eager")
    return train(compiled, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=2)


def clean_fsdp1_detection(rank: int, tmp: str) -> List[float]:
    """Code that supports both FSDP versions asks FSDP1 whether it wraps the model: the answer,
    no unit, is true of an FSDP2 model, and the loop then takes the FSDP2 path."""
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    assert not FullyShardedDataParallel.fsdp_modules(model)
    return train(model, optimizer, rank, steps=1)


def clean_tied(rank: int, tmp: str) -> List[float]:
    """Tied weights stay in one unit: both left to the root, or grouped."""
    losses = []
    for grouped in (False, True):
        torch.manual_seed(0)
        model = TiedModel()
        for block in model.layers:
            fully_shard(block)
        if grouped:
            fully_shard([model.emb, model.head])
        fully_shard(model)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        loss = model(tokens(rank)).float().pow(2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def clean_parameterless_root(rank: int, tmp: str) -> List[float]:
    """Blocks sharded, root not: fine when the root owns no parameters of its own."""
    torch.manual_seed(0)
    model = nn.Sequential(wrap_block(Block()), wrap_block(Block()))
    for block in model:
        fully_shard(block)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = model(torch.randn(4, DIM, generator=torch.Generator().manual_seed(rank))).pow(2).mean()
    loss.backward()
    optimizer.step()
    return [loss.item()]


def clean_full_state_dict_load(rank: int, tmp: str) -> None:
    """A full plain state dict goes in through set_model_state_dict, not load_state_dict."""
    full = get_model_state_dict(build(shard=False))
    model = build(seed=1)
    set_model_state_dict(model, full, options=StateDictOptions(full_state_dict=True))
    model(batch(rank)).sum().backward()


def clean_head_outside_forward(rank: int, tmp: str) -> List[float]:
    """A chunked loss: the root's head is called after the root's forward, while the root is all-gathered."""
    model = build()
    model.without_head = True
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for step in range(2):
        hidden = model(batch(rank, step))
        loss = sum(model.out(chunk).pow(2).mean() for chunk in hidden.chunk(2))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses


def clean_collectives_on_every_rank(rank: int, tmp: str) -> List[float]:
    """Every collective-backed call on every rank, rank 0 alone only writing."""
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = train(model, optimizer, rank, steps=1)
    model(batch(rank)).sum().backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    losses.append(float(norm.full_tensor()))
    full = {name: param.full_tensor() for name, param in model.state_dict().items()}
    if rank == 0:
        torch.save(full, os.path.join(tmp, "full_every_rank.pt"))
    dcp.save({"model": get_model_state_dict(model)}, checkpoint_id=os.path.join(tmp, "every_rank"))
    return losses


def fqn(key: str) -> str:
    """A state-dict key without the wrappers' prefixes, as get_model_state_dict names it."""
    return key.replace("_checkpoint_wrapped_module.", "").replace("_orig_mod.", "")


def meta_model(**shard_kwargs: Any) -> Model:
    with torch.device("meta"):
        model = Model()
    for block in model.layers:
        fully_shard(block, **shard_kwargs)
    fully_shard(model, **shard_kwargs)
    return model


def clean_resume_with_assign(rank: int, tmp: str) -> List[float]:
    """The FSDP2 tutorial's resume: DTensors made from a full state dict, loaded with assign=True."""
    full = get_model_state_dict(build(shard=False))
    model = meta_model()
    sharded = {name: nn.Parameter(distribute_tensor(full[fqn(name)], meta.device_mesh, meta.placements))
               for name, meta in model.state_dict().items()}
    model.load_state_dict(sharded, strict=False, assign=True)
    return train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=2)


def clean_resume_with_broadcast(rank: int, tmp: str) -> List[float]:
    """set_model_state_dict(broadcast_from_rank0=True) into a meta-device model assigns DTensors."""
    full = get_model_state_dict(build(shard=False)) if rank == 0 else {}
    model = meta_model()
    set_model_state_dict(model, full, options=StateDictOptions(full_state_dict=True, broadcast_from_rank0=True))
    return train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=2)


def clean_per_rank_checkpoint(rank: int, tmp: str) -> List[float]:
    """Every rank saves its own shards to a file named after it, and loads it back (accelerate, use_dcp=False)."""
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = train(model, optimizer, rank, steps=1)
    path = os.path.join(tmp, f"per_rank_{rank}.pt")
    torch.save(model.state_dict(), path)
    restored = build(seed=1)
    restored.load_state_dict(torch.load(path, weights_only=False))
    return losses + train(restored, torch.optim.SGD(restored.parameters(), lr=0.1), rank, steps=1)


def clean_threads(rank: int, tmp: str) -> List[float]:
    """Training in a worker thread while another thread saves plain tensors."""
    result: Dict[str, Any] = {}

    def loop() -> None:
        model = build()
        result["losses"] = train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=2)

    def saver() -> None:
        for i in range(5):
            torch.save({"x": torch.ones(3)}, os.path.join(tmp, f"plain{rank}_{i}.pt"))

    threads = [threading.Thread(target=loop), threading.Thread(target=saver)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return result["losses"]


SCENARIOS: Dict[str, Callable[[int, str], Any]] = {
    name: value for name, value in globals().items() if name.startswith(("fsd", "clean_")) and callable(value)
}


def _run_one(name: str, mode: Any, tmp: str, variant: str = "plain") -> Dict[str, Any]:
    global VARIANT
    entry: Dict[str, Any] = {"error": None, "warnings": [], "other": None, "value": None, "message": None,
                             "where": None}
    VARIANT = variant
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with fsdp_lint.runtime.guard(mode=mode) if mode else contextlib.nullcontext():
                entry["value"] = SCENARIOS[name](rank=dist.get_rank(), tmp=tmp)
        except FSDPContractError as exc:
            entry["error"], entry["message"] = exc.code, str(exc)
        except Exception as exc:
            entry["other"] = f"{type(exc).__name__}: {exc}"[:300]
        finally:
            VARIANT = "plain"
    for warning in caught:
        if isinstance(warning.message, FSDPContractWarning):
            entry["warnings"].append(warning.message.code)
            entry["message"] = entry["message"] or str(warning.message)
            entry["where"] = entry["where"] or f"{os.path.basename(warning.filename)}:{warning.lineno}"
        elif "fsdp-lint" in str(warning.message):
            entry["warnings"].append(f"internal: {warning.message}"[:300])
    return entry


def job_key(name: str, mode: Any, variant: str = "plain") -> str:
    return f"{mode}:{name}" if variant == "plain" else f"{mode}:{name}@{variant}"


def run_scenarios(rank: int, payload: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    """``payload["jobs"]``: [scenario, mode, variant] lists; results keyed by ``job_key``."""
    results = {}
    for name, mode, *variant in payload["jobs"]:
        results[job_key(name, mode, *variant)] = _run_one(name, mode, payload["tmp"], *variant)
        store = dist.distributed_c10d._get_default_store()  # the next job starts together on both ranks
        store.set(f"job/{len(results)}/{rank}", "1")
        store.wait([f"job/{len(results)}/{r}" for r in range(dist.get_world_size())])
    return results


def compare_guarded_losses(rank: int, tmp: str) -> Dict[str, List[str]]:
    """The same loop unguarded and guarded; the losses must be bit-identical."""
    plain_model = build()
    plain = train(plain_model, torch.optim.AdamW(plain_model.parameters(), lr=1e-2), rank, steps=4)
    with fsdp_lint.runtime.guard(mode="raise"):
        guarded_model = build()
        guarded = train(guarded_model, torch.optim.AdamW(guarded_model.parameters(), lr=1e-2), rank, steps=4)
    return {"plain": [float.hex(v) for v in plain], "guarded": [float.hex(v) for v in guarded]}


SCENARIOS["compare_guarded_losses"] = compare_guarded_losses


def rank0_saves_sharded(rank: int, payload: Any) -> None:
    """Only rank 0 violates; rank 1 goes on training and must stop with the same error."""
    fsdp_lint.runtime.enable(mode="raise")
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, optimizer, rank, steps=1)
    if rank == 0:
        torch.save(model.state_dict(), os.path.join(payload, "rank0.pt"))
    train(model, optimizer, rank, steps=3)
    dist.barrier()


def _patchable_attributes() -> Dict[str, Any]:
    """Every attribute the guard may replace, by owner, as object identities."""
    from torch.distributed.fsdp import FSDPModule
    from torch.distributed.fsdp._fully_shard._fsdp_param_group import FSDPParamGroup
    from torch.distributed.fsdp._fully_shard._fsdp_state import FSDPState
    from torch.optim.optimizer import _global_optimizer_pre_hooks

    owners = [nn.Module, torch.optim.Optimizer, FSDPModule, FSDPState, FSDPParamGroup, FullyShardedDataParallel]
    owners += FSDPModule.__subclasses__()
    snapshot = {owner.__qualname__: {k: id(v) for k, v in vars(owner).items()} for owner in owners}
    snapshot["torch.save"] = id(torch.save)
    snapshot["torch.serialization.save"] = id(torch.serialization.save)
    snapshot["optimizer pre-hooks"] = list(_global_optimizer_pre_hooks)
    return snapshot


def enable_disable_restores(rank: int, tmp: str) -> Dict[str, bool]:
    """disable() puts back every patched attribute and hook; enable/disable/enable cycles work."""
    fsdp_lint.runtime.disable()
    build()(batch(rank))  # FSDP<Model>/FSDP<Block> classes exist before enable()
    before = _patchable_attributes()
    fsdp_lint.runtime.enable()
    fsdp_lint.runtime.enable()  # twice: harmless
    patched = _patchable_attributes() != before
    build()(batch(rank))
    fsdp_lint.runtime.disable()
    restored_once = _patchable_attributes() == before
    fsdp_lint.runtime.enable()
    caught_again = False
    try:
        build().forward(batch(rank))  # noqa: FSD201 (intentional violation)
    except FSDPContractError as exc:
        caught_again = exc.code == "FSD201"
    fsdp_lint.runtime.disable()
    return {"patched": patched, "restored": restored_once, "restored_again": _patchable_attributes() == before,
            "caught_after_cycle": caught_again}


SCENARIOS["enable_disable_restores"] = enable_disable_restores


def late_rank_is_named(rank: int, tmp: str) -> List[str]:
    """Rank 1 reaches the first forward after rank 0's bounded wait: rank 0 names it and goes on."""
    previous = os.environ.get("FSDP_LINT_RUNTIME_TIMEOUT", "10")
    os.environ["FSDP_LINT_RUNTIME_TIMEOUT"] = "1"
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with fsdp_lint.runtime.guard(mode="raise"):
                model = build()
                if rank == 1:
                    time.sleep(2.5)
                model(batch(rank)).sum().backward()
    finally:
        os.environ["FSDP_LINT_RUNTIME_TIMEOUT"] = previous
    return [str(w.message) for w in caught if "fsdp-lint" in str(w.message)]


SCENARIOS["late_rank_is_named"] = late_rank_is_named
