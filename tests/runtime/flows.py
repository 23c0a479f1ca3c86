"""Small versions of real FSDP2 trainers, each run once plain and once guarded on 2 gloo ranks.

In our own words, after the flows of the FSDP2 tutorial and pytorch/examples' ``distributed/FSDP2``
(meta-device init, mixed precision, DCP and full-state-dict checkpoints, resume with
``load_state_dict(assign=True)`` or ``set_model_state_dict``, explicit prefetching),
torchtitan's ``parallelize_llama`` (activation checkpointing with ``checkpoint_wrapper``,
compiled blocks, gradient clipping over DTensor gradients, a loss computed in chunks by the
output layer after the model's forward) and accelerate's FSDP2 path (a tied embedding and head
in the root unit, gradient accumulation with ``set_requires_gradient_sync``, per-rank
checkpoint files). The guard must say nothing, and the losses must be bit for bit the plain ones.
The flows run on the device of the process group's backend: CPU under gloo, the rank's current
GPU under NCCL (tests/runtime/test_cuda.py).
"""

import contextlib
import os
import warnings
from typing import Any, Callable, Dict, List

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import checkpoint_wrapper
from torch.distributed.checkpoint.state_dict import (
    StateDictOptions,
    get_model_state_dict,
    get_state_dict,
    set_model_state_dict,
    set_state_dict,
)
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from torch.distributed.tensor import distribute_tensor

import fsdp_lint.runtime
from fsdp_lint.runtime_errors import FSDPContractError, FSDPContractWarning

VOCAB, DIM, LAYERS, SEQ = 32, 16, 3, 8


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm = nn.RMSNorm(DIM)
        self.w1 = nn.Linear(DIM, 2 * DIM)
        self.w2 = nn.Linear(2 * DIM, DIM)

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return h + self.w2(F.silu(self.w1(self.norm(h))))

    def reset_parameters(self) -> None:
        self.norm.reset_parameters()
        for linear in (self.w1, self.w2):
            nn.init.trunc_normal_(linear.weight, std=0.02)
            nn.init.zeros_(linear.bias)


class Transformer(nn.Module):
    def __init__(self, tied: bool = False) -> None:
        super().__init__()
        self.tok_embeddings = nn.Embedding(VOCAB, DIM)
        self.layers = nn.ModuleList(Block() for _ in range(LAYERS))
        self.norm = nn.RMSNorm(DIM)
        self.output = nn.Linear(DIM, VOCAB, bias=False)
        if tied:
            self.output.weight = self.tok_embeddings.weight
        self.skip_output = False

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h = self.tok_embeddings(tokens)
        for layer in self.layers:
            h = layer(h)
        h = self.norm(h)
        return h if self.skip_output else self.output(h)

    def init_weights(self) -> None:
        nn.init.normal_(self.tok_embeddings.weight, std=0.5)
        self.norm.reset_parameters()
        if self.output.weight is not self.tok_embeddings.weight:
            nn.init.trunc_normal_(self.output.weight, std=0.1)
        for layer in self.layers:
            layer.reset_parameters()  # through checkpoint_wrapper's and torch.compile's forwarding


def device() -> torch.device:
    return torch.device("cuda", torch.cuda.current_device()) if dist.get_backend() == "nccl" else torch.device("cpu")


def tokens(rank: int, step: int) -> torch.Tensor:
    batch = torch.randint(0, VOCAB, (4, SEQ + 1), generator=torch.Generator().manual_seed(1000 * step + rank))
    return batch.to(device())


def lm_loss(logits: torch.Tensor, batch: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.flatten(0, 1).float(), batch[:, 1:].flatten())


def shard(model: Transformer, mp: bool = False, prefetch: bool = False) -> Transformer:
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32) if mp else None
    kwargs = {"mp_policy": policy} if policy else {}
    for layer in model.layers:
        fully_shard(layer, **kwargs)
    fully_shard(model, **kwargs)
    if prefetch:
        layers = list(model.layers)
        for i, layer in enumerate(layers):
            layer.set_modules_to_forward_prefetch(layers[i + 1:i + 2])
            layer.set_modules_to_backward_prefetch(layers[max(0, i - 1):i][::-1])
    return model


def on_meta(tied: bool = False) -> Transformer:
    with torch.device("meta"):
        return Transformer(tied)


def train(model: Transformer, optimizer: torch.optim.Optimizer, rank: int, steps: range) -> List[float]:
    losses = []
    for step in steps:
        batch = tokens(rank, step)
        loss = lm_loss(model(batch[:, :-1]), batch)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses


def fqn(key: str) -> str:
    return key.replace("_checkpoint_wrapped_module.", "").replace("_orig_mod.", "")


# --- the flows ---------------------------------------------------------------------------------


def tutorial(rank: int, tmp: str) -> List[float]:
    """Meta init, mixed precision, to_empty + init, train, DCP and full checkpoints, three resumes."""
    torch.manual_seed(0)
    model = shard(on_meta(), mp=True)
    model.to_empty(device=device())
    model.init_weights()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    losses = train(model, optimizer, rank, range(2))
    model_sd, optim_sd = get_state_dict(model, optimizer)
    dcp.save({"model": model_sd, "optim": optim_sd}, checkpoint_id=os.path.join(tmp, "tutorial_dcp"))
    full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    if rank == 0:
        torch.save(full, os.path.join(tmp, "tutorial_full.pt"))
    dist.barrier()

    # Resume 1, as the tutorial does: the full checkpoint made into DTensors, loaded with assign=True.
    resumed = shard(on_meta(), mp=True)
    loaded = torch.load(os.path.join(tmp, "tutorial_full.pt"), mmap=True, weights_only=True)
    sharded = {name: nn.Parameter(distribute_tensor(loaded[fqn(name)], meta.device_mesh, meta.placements))
               for name, meta in resumed.state_dict().items()}
    resumed.load_state_dict(sharded, strict=False, assign=True)
    losses += train(resumed, torch.optim.AdamW(resumed.parameters(), lr=1e-2), rank, range(2, 4))

    # Resume 2: DCP into a materialised model, model and optimizer through set_state_dict.
    resumed = shard(on_meta(), mp=True)
    resumed.to_empty(device=device())
    optimizer = torch.optim.AdamW(resumed.parameters(), lr=1e-2)
    model_sd, optim_sd = get_state_dict(resumed, optimizer)
    state = {"model": model_sd, "optim": optim_sd}
    dcp.load(state, checkpoint_id=os.path.join(tmp, "tutorial_dcp"))
    set_state_dict(resumed, optimizer, model_state_dict=state["model"], optim_state_dict=state["optim"])
    losses += train(resumed, optimizer, rank, range(2, 4))

    # Resume 3: a full state dict on rank 0 only, broadcast into a meta-device model.
    resumed = shard(on_meta(), mp=True)
    set_model_state_dict(resumed, loaded if rank == 0 else {},
                         options=StateDictOptions(full_state_dict=True, broadcast_from_rank0=True))
    return losses + train(resumed, torch.optim.AdamW(resumed.parameters(), lr=1e-2), rank, range(2, 4))


def examples(rank: int, tmp: str) -> List[float]:
    """pytorch/examples' FSDP2 trainer: meta init, explicit prefetching, full state dict checkpoints."""
    torch.manual_seed(0)
    model = shard(on_meta(), mp=True, prefetch=True)
    model.to_empty(device=device())
    model.init_weights()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = train(model, optimizer, rank, range(3))
    full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    resumed = shard(on_meta(), mp=True, prefetch=True)
    set_model_state_dict(resumed, full if rank == 0 else {},
                         options=StateDictOptions(full_state_dict=True, broadcast_from_rank0=True))
    return losses + train(resumed, torch.optim.Adam(resumed.parameters(), lr=1e-2), rank, range(3, 5))


def torchtitan(rank: int, tmp: str) -> List[float]:
    """parallelize_llama's order (activation checkpointing, then compile, then fully_shard), clipping, a chunked loss."""
    torch.manual_seed(0)
    model = on_meta()
    for i, layer in enumerate(model.layers):
        model.layers[i] = torch.compile(checkpoint_wrapper(layer), backend="eager")
    shard(model, mp=True)
    model.to_empty(device=device())
    model.init_weights()
    model.skip_output = True  # the loss calls model.output itself, in chunks, while the root is all-gathered
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    losses = []
    for step in range(3):
        batch = tokens(rank, step)
        hidden = model(batch[:, :-1])
        loss = sum(lm_loss(model.output(chunk), target) for chunk, target in zip(hidden.chunk(2), batch.chunk(2)))
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        norm.full_tensor()  # logged by the trainer: every rank
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    dcp.save({"model": get_model_state_dict(model)}, checkpoint_id=os.path.join(tmp, "titan_dcp"))
    return losses


def accelerate(rank: int, tmp: str) -> List[float]:
    """A tied embedding and head in the root unit, activation checkpointing, accumulation, per-rank files."""
    torch.manual_seed(0)
    model = Transformer(tied=True)
    for i, layer in enumerate(model.layers):
        model.layers[i] = checkpoint_wrapper(layer)
    shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    losses = []
    for step in range(2):
        for micro in range(2):
            model.set_requires_gradient_sync(micro == 1)
            batch = tokens(rank, 2 * step + micro)
            loss = lm_loss(model(batch[:, :-1]), batch) / 2
            loss.backward()
            losses.append(loss.item())
        optimizer.step()
        optimizer.zero_grad()
    path = os.path.join(tmp, f"pytorch_model_fsdp_rank{rank}.bin")  # save_fsdp_model(..., use_dcp=False)
    torch.save(model.state_dict(), path)
    resumed = Transformer(tied=True)
    for i, layer in enumerate(resumed.layers):
        resumed.layers[i] = checkpoint_wrapper(layer)
    shard(resumed)
    resumed.load_state_dict(torch.load(path, weights_only=False))
    return losses + train(resumed, torch.optim.AdamW(resumed.parameters(), lr=1e-2), rank, range(4, 6))


FLOWS: Dict[str, Callable[[int, str], List[float]]] = {
    "tutorial": tutorial, "examples": examples, "torchtitan": torchtitan, "accelerate": accelerate,
}


def run_flows(rank: int, tmp: str) -> Dict[str, Dict[str, Any]]:
    """Every flow plain, then guarded (raise mode): losses as hex floats, and what the guard said."""
    results: Dict[str, Dict[str, Any]] = {}
    for name, flow in FLOWS.items():
        entry: Dict[str, Any] = {"warnings": [], "error": None}
        for mode in (None, "raise"):
            directory = os.path.join(tmp, f"{name}_{mode}")
            os.makedirs(directory, exist_ok=True)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    with fsdp_lint.runtime.guard(mode=mode) if mode else contextlib.nullcontext():
                        entry["guarded" if mode else "plain"] = [float.hex(v) for v in flow(rank, directory)]
                except (FSDPContractError, RuntimeError, AttributeError) as exc:
                    entry["error"] = f"{'guarded' if mode else 'plain'}: {type(exc).__name__}: {exc}"[:600]
            if mode:
                entry["warnings"] = [str(w.message)[:300] for w in caught
                                     if isinstance(w.message, FSDPContractWarning) or "fsdp-lint" in str(w.message)]
        results[name] = entry
        dist.barrier()
    return results
