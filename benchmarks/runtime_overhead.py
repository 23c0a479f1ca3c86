"""Overhead of the runtime guard on a 2-rank FSDP2 loop, and the cost of importing it.

    python benchmarks/runtime_overhead.py [--rounds 150] [--steps 2] [--accumulation 1] [--clip]
                                          [--device cpu|cuda]

One process group, one model: short rounds of guarded and unguarded steps alternate (order
flipped every round, the guard switched with enable()/disable(), one untimed step after each
switch: a guard enabled anew runs its one-time checks at its first step), so that each round
compares neighbouring steps and machine noise, which on a shared 2-core machine is larger than
the effect, hits both alike. Each round yields one ratio of median step times; the headline is the median
of those per-round ratios (target: at most 1.02), with their interquartile range and extremes
as the spread. Wall time and the process's CPU time are both reported: the guard's cost is CPU
work in the training process, and CPU time is far less disturbed by other processes.
``--accumulation 2`` runs two micro-batches per step with ``set_requires_gradient_sync``
toggled, the per-step path of FSD205. ``--clip`` clips the gradient norm every step, as
torchtitan does: a collective-backed call, so the ranks meet through the store first (FSD206).
``--device cuda`` runs NCCL ranks, one per GPU (at most 2; one where one GPU is lent), each
mapped with ``torch.cuda.set_device``; a step's time then ends with ``torch.cuda.synchronize()``.
The model is small, so a step is mostly the host launching kernels: the guard's host-side
cost shows undiluted, as it would not behind a large model's GPU time.
Then prints the time that ``import fsdp_lint.runtime`` adds to a process that already imported
torch (target: < 50 ms).
"""

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import warnings
from typing import Dict, List, Tuple

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.distributed.fsdp import fully_shard

import fsdp_lint.runtime

DIM, HEADS, SEQ, BATCH, BLOCKS = 64, 4, 16, 8, 4


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(DIM)
        self.attn = nn.MultiheadAttention(DIM, HEADS, batch_first=True)
        self.norm2 = nn.LayerNorm(DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        x = self.norm1(h)
        h = h + self.attn(x, x, x, need_weights=False)[0]
        return h + self.mlp(self.norm2(h))


class Transformer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(512, DIM)
        self.layers = nn.ModuleList(Block() for _ in range(BLOCKS))
        self.head = nn.Linear(DIM, 512)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h = self.embed(tokens)
        for block in self.layers:
            h = block(h)
        return self.head(h)


def _timed_steps(model: nn.Module, optimizer: torch.optim.Optimizer, steps: int, rank: int,
                 accumulation: int, clip: bool, device: torch.device) -> List[Tuple[float, float]]:
    """(wall, CPU) seconds per step; CPU time of this process barely sees the other processes."""
    times = []
    for step in range(steps):
        tokens = torch.randint(0, 512, (BATCH, SEQ), generator=torch.Generator().manual_seed(step + 1000 * rank))
        tokens = tokens.to(device)
        start, cpu_start = time.perf_counter(), time.process_time()
        for micro in range(accumulation):
            if accumulation > 1:
                model.set_requires_gradient_sync(micro == accumulation - 1)
            loss = nn.functional.cross_entropy(model(tokens).flatten(0, 1), tokens.flatten())
            loss.backward()
        if clip:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
        if device.type == "cuda":
            torch.cuda.synchronize()
        times.append((time.perf_counter() - start, time.process_time() - cpu_start))
    return times


def _quantiles(values: List[float]) -> str:
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f"IQR {q1:.4f}-{q3:.4f}, min {min(values):.4f}, max {max(values):.4f}"


def _worker(rank: int, port: int, rounds: int, steps: int, accumulation: int, clip: bool, world: int,
            device_type: str) -> None:
    os.environ.update({"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port), "OMP_NUM_THREADS": "1",
                       "LOCAL_RANK": str(rank)})
    torch.set_num_threads(1)
    warnings.filterwarnings("ignore", message="FSDP2-wrapped module")  # torch 2.14's view notice
    device = torch.device(device_type, rank) if device_type == "cuda" else torch.device("cpu")
    if device.type == "cuda":
        torch.cuda.set_device(device)
    dist.init_process_group("nccl" if device.type == "cuda" else "gloo", rank=rank, world_size=world)
    fsdp_lint.runtime.enable(mode="raise")
    torch.manual_seed(0)
    model = Transformer()
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    _timed_steps(model, optimizer, 3, rank, accumulation, clip, device)  # warm-up, guarded: the one-time checks run here
    steps_of: Dict[bool, List[Tuple[float, float]]] = {True: [], False: []}
    ratios: Dict[str, List[float]] = {"wall": [], "cpu": []}
    for round_index in range(rounds):
        order = (True, False) if round_index % 2 else (False, True)
        medians = {}
        for with_guard in order:
            if with_guard:
                fsdp_lint.runtime.enable(mode="raise")
            else:
                fsdp_lint.runtime.disable()
            # One step untimed: a guard enabled anew runs its one-time checks (the optimizer's
            # parameters, each unit's baseline) at its first step, which a training run pays
            # once, not at every step.
            _timed_steps(model, optimizer, 1, rank, accumulation, clip, device)
            times = _timed_steps(model, optimizer, steps, rank, accumulation, clip, device)
            steps_of[with_guard].extend(times)
            medians[with_guard] = [statistics.median(column) for column in zip(*times)]
        for index, clock in enumerate(("wall", "cpu")):
            ratios[clock].append(medians[True][index] / medians[False][index])
    fsdp_lint.runtime.disable()
    if rank == 0:
        print(f"{len(steps_of[False])} steps each, {rounds} alternating rounds, {accumulation} micro-batch(es), "
              f"{'clip_grad_norm_ every step, ' if clip else ''}{world} rank(s), "
              f"{dist.get_backend()}, {torch.cuda.get_device_name() if device.type == 'cuda' else 'CPU'}, "
              f"torch {torch.__version__}")
        for index, clock in enumerate(("wall", "cpu")):
            plain = statistics.median(t[index] for t in steps_of[False]) * 1e3
            guarded = statistics.median(t[index] for t in steps_of[True]) * 1e3
            print(f"{clock:>4} time: median step unguarded {plain:.3f} ms, guarded {guarded:.3f} ms; overhead ratio, "
                  f"median of per-round ratios: {statistics.median(ratios[clock]):.4f} "
                  f"({_quantiles(ratios[clock])}); pooled medians: {guarded / plain:.4f}")
    dist.destroy_process_group()


def import_cost_ms(repeats: int = 5) -> float:
    """Median time ``import fsdp_lint.runtime`` adds after ``import torch``, in a fresh process."""
    code = "import time, torch; t = time.perf_counter(); import fsdp_lint.runtime; print(time.perf_counter() - t)"
    runs = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(repeats)]
    return statistics.median(runs) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=150)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--accumulation", type=int, default=1)
    parser.add_argument("--clip", action="store_true", help="clip the gradient norm every step")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    options = parser.parse_args()
    world = min(2, torch.cuda.device_count()) if options.device == "cuda" else 2
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    mp.spawn(_worker, args=(port, options.rounds, options.steps, options.accumulation, options.clip, world,
                            options.device), nprocs=world, join=True)
    print(f"import fsdp_lint.runtime after torch: {import_cost_ms():.1f} ms (median of 5 fresh processes)")


if __name__ == "__main__":
    main()
