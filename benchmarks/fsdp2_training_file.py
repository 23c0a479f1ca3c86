"""A realistic single-file FSDP2 training script of a chosen length, for the editor benchmark.

An editor lints the file being edited, and in FSDP2 projects that file is typically a trainer like
this one: a transformer built from blocks on the meta device, a mesh, `fully_shard` per block then
on the root, AdamW with a warm-up schedule, a loop with gradient accumulation and clipping,
checkpoints through DCP, and the ordinary code around them (dataclass configuration, argument
parsing, logging, metrics). Most of its lines are that ordinary code, which the linter must parse
and walk without reporting anything. The script is correct FSDP2 code: it has no finding.

The output is deterministic: the core script, then numbered metric classes (registered for the
trainer to report) until the requested number of lines is reached.

    python benchmarks/fsdp2_training_file.py --lines 1000 > /tmp/train_fsdp2.py
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Sequence

_HEADER = '''\
"""Pre-train a decoder-only transformer with FSDP2 (`fully_shard`) on one or more nodes.

    torchrun --nproc-per-node 8 train.py --dim 2048 --layers 24 --steps 10000
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import logging
import math
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_state_dict, set_state_dict
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
from torch.distributed.fsdp import FSDPModule, MixedPrecisionPolicy, fully_shard
from torch.utils.data import DataLoader, Dataset, DistributedSampler

logger = logging.getLogger("train")

METRICS: Dict[str, Callable[[], "Metric"]] = {}


def register_metric(name: str) -> Callable[[type], type]:
    def register(cls: type) -> type:
        METRICS[name] = cls
        return cls

    return register


class Metric:
    """A value accumulated over steps and reduced across ranks when logged."""

    def update(self, **values: float) -> None:
        raise NotImplementedError

    def compute(self) -> float:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------------------------


@dataclass
class ModelConfig:
    dim: int = 1024
    n_layers: int = 16
    n_heads: int = 16
    n_kv_heads: int = 8
    vocab_size: int = 32000
    multiple_of: int = 256
    ffn_dim_multiplier: float = 1.3
    norm_eps: float = 1e-5
    rope_theta: float = 10000.0
    max_seq_len: int = 2048
    dropout: float = 0.0

    @property
    def head_dim(self) -> int:
        return self.dim // self.n_heads

    def validate(self) -> None:
        if self.dim % self.n_heads:
            raise ValueError(f"dim {self.dim} is not a multiple of n_heads {self.n_heads}")
        if self.n_heads % self.n_kv_heads:
            raise ValueError(f"n_heads {self.n_heads} is not a multiple of n_kv_heads {self.n_kv_heads}")
        if self.max_seq_len <= 0:
            raise ValueError("max_seq_len must be positive")


@dataclass
class OptimizerConfig:
    lr: float = 3e-4
    min_lr: float = 3e-5
    weight_decay: float = 0.1
    betas: Tuple[float, float] = (0.9, 0.95)
    eps: float = 1e-8
    warmup_steps: int = 2000
    max_grad_norm: float = 1.0
    fused: bool = True


@dataclass
class TrainingConfig:
    steps: int = 10000
    batch_size: int = 8
    seq_len: int = 2048
    grad_accumulation: int = 1
    seed: int = 1234
    mixed_precision: bool = True
    reshard_after_forward: bool = True
    activation_checkpointing: bool = False
    compile: bool = False
    eval_every: int = 500
    eval_steps: int = 50


@dataclass
class CheckpointConfig:
    folder: str = "checkpoints"
    interval: int = 1000
    keep_latest: int = 3
    resume: bool = True
    async_save: bool = False


@dataclass
class LoggingConfig:
    log_every: int = 10
    metrics_file: Optional[str] = "metrics.jsonl"
    level: str = "INFO"
    metrics: List[str] = field(default_factory=lambda: ["loss", "grad_norm", "tokens_per_second"])


@dataclass
class JobConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    optimizer: OptimizerConfig = field(default_factory=OptimizerConfig)
    training: TrainingConfig = field(default_factory=TrainingConfig)
    checkpoint: CheckpointConfig = field(default_factory=CheckpointConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    dump_folder: str = "outputs"

    def to_dict(self) -> Dict[str, Any]:
        return dataclasses.asdict(self)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w") as handle:
            json.dump(self.to_dict(), handle, indent=2, sort_keys=True)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Pre-train a transformer with FSDP2")
    model = parser.add_argument_group("model")
    model.add_argument("--dim", type=int, default=ModelConfig.dim)
    model.add_argument("--layers", type=int, default=ModelConfig.n_layers)
    model.add_argument("--heads", type=int, default=ModelConfig.n_heads)
    model.add_argument("--kv-heads", type=int, default=ModelConfig.n_kv_heads)
    model.add_argument("--vocab-size", type=int, default=ModelConfig.vocab_size)
    model.add_argument("--max-seq-len", type=int, default=ModelConfig.max_seq_len)
    optim = parser.add_argument_group("optimizer")
    optim.add_argument("--lr", type=float, default=OptimizerConfig.lr)
    optim.add_argument("--min-lr", type=float, default=OptimizerConfig.min_lr)
    optim.add_argument("--weight-decay", type=float, default=OptimizerConfig.weight_decay)
    optim.add_argument("--warmup-steps", type=int, default=OptimizerConfig.warmup_steps)
    optim.add_argument("--max-grad-norm", type=float, default=OptimizerConfig.max_grad_norm)
    training = parser.add_argument_group("training")
    training.add_argument("--steps", type=int, default=TrainingConfig.steps)
    training.add_argument("--batch-size", type=int, default=TrainingConfig.batch_size)
    training.add_argument("--seq-len", type=int, default=TrainingConfig.seq_len)
    training.add_argument("--grad-accumulation", type=int, default=TrainingConfig.grad_accumulation)
    training.add_argument("--seed", type=int, default=TrainingConfig.seed)
    training.add_argument("--no-mixed-precision", action="store_true")
    training.add_argument("--no-reshard-after-forward", action="store_true")
    training.add_argument("--activation-checkpointing", action="store_true")
    training.add_argument("--compile", action="store_true")
    training.add_argument("--eval-every", type=int, default=TrainingConfig.eval_every)
    checkpoint = parser.add_argument_group("checkpoint")
    checkpoint.add_argument("--checkpoint-folder", default=CheckpointConfig.folder)
    checkpoint.add_argument("--checkpoint-interval", type=int, default=CheckpointConfig.interval)
    checkpoint.add_argument("--keep-latest", type=int, default=CheckpointConfig.keep_latest)
    checkpoint.add_argument("--no-resume", action="store_true")
    logs = parser.add_argument_group("logging")
    logs.add_argument("--log-every", type=int, default=LoggingConfig.log_every)
    logs.add_argument("--metrics-file", default=LoggingConfig.metrics_file)
    logs.add_argument("--log-level", default=LoggingConfig.level, choices=["DEBUG", "INFO", "WARNING"])
    logs.add_argument("--metric", action="append", dest="metrics", default=None)
    parser.add_argument("--dump-folder", default="outputs")
    return parser


def parse_args(argv: Optional[List[str]] = None) -> JobConfig:
    args = build_parser().parse_args(argv)
    model = ModelConfig(
        dim=args.dim,
        n_layers=args.layers,
        n_heads=args.heads,
        n_kv_heads=args.kv_heads,
        vocab_size=args.vocab_size,
        max_seq_len=args.max_seq_len,
    )
    model.validate()
    optimizer = OptimizerConfig(
        lr=args.lr,
        min_lr=args.min_lr,
        weight_decay=args.weight_decay,
        warmup_steps=args.warmup_steps,
        max_grad_norm=args.max_grad_norm,
    )
    training = TrainingConfig(
        steps=args.steps,
        batch_size=args.batch_size,
        seq_len=args.seq_len,
        grad_accumulation=args.grad_accumulation,
        seed=args.seed,
        mixed_precision=not args.no_mixed_precision,
        reshard_after_forward=not args.no_reshard_after_forward,
        activation_checkpointing=args.activation_checkpointing,
        compile=args.compile,
        eval_every=args.eval_every,
    )
    checkpoint = CheckpointConfig(
        folder=args.checkpoint_folder,
        interval=args.checkpoint_interval,
        keep_latest=args.keep_latest,
        resume=not args.no_resume,
    )
    logs = LoggingConfig(log_every=args.log_every, metrics_file=args.metrics_file, level=args.log_level)
    if args.metrics:
        logs.metrics = list(args.metrics)
    return JobConfig(model, optimizer, training, checkpoint, logs, args.dump_folder)


# ---------------------------------------------------------------------------------------------
# Logging and metrics
# ---------------------------------------------------------------------------------------------


class RankFilter(logging.Filter):
    def __init__(self, rank: int):
        super().__init__()
        self.rank = rank

    def filter(self, record: logging.LogRecord) -> bool:
        record.rank = self.rank
        return True


def setup_logging(level: str, rank: int) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("[rank%(rank)d] %(asctime)s %(levelname)s %(message)s"))
    handler.addFilter(RankFilter(rank))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level if rank == 0 else "WARNING")


class RunningAverage:
    """Mean of the last `window` values, for smoothed logging."""

    def __init__(self, window: int = 100):
        self.window = window
        self.values: List[float] = []

    def add(self, value: float) -> None:
        self.values.append(value)
        if len(self.values) > self.window:
            del self.values[0]

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else float("nan")


class Throughput:
    def __init__(self) -> None:
        self.tokens = 0
        self.started = time.perf_counter()

    def add(self, tokens: int) -> None:
        self.tokens += tokens

    def rate(self) -> float:
        elapsed = time.perf_counter() - self.started
        return self.tokens / elapsed if elapsed > 0 else 0.0

    def reset(self) -> None:
        self.tokens = 0
        self.started = time.perf_counter()


class MetricsWriter:
    """Appends one JSON line per logged step; only rank 0 writes."""

    def __init__(self, path: Optional[str], rank: int):
        self.path = Path(path) if path and rank == 0 else None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)

    def write(self, step: int, values: Dict[str, float]) -> None:
        if self.path is None:
            return
        record = {"step": step, "time": time.time(), **{k: round(v, 6) for k, v in values.items()}}
        with open(self.path, "a") as handle:
            handle.write(json.dumps(record) + "\\n")


def reduce_mean(value: torch.Tensor, mesh: DeviceMesh) -> float:
    reduced = value.detach().clone()
    dist.all_reduce(reduced, op=dist.ReduceOp.AVG, group=mesh.get_group())
    return reduced.item()


def format_metrics(values: Dict[str, float]) -> str:
    parts = []
    for name in sorted(values):
        value = values[name]
        parts.append(f"{name}={value:.4g}" if abs(value) < 1e4 else f"{name}={value:.3e}")
    return " ".join(parts)


# ---------------------------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------------------------


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        normed = x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps)
        return normed.type_as(x) * self.weight

    def reset_parameters(self) -> None:
        nn.init.ones_(self.weight)


def precompute_rope(head_dim: int, max_seq_len: int, theta: float) -> torch.Tensor:
    frequencies = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
    positions = torch.arange(max_seq_len, dtype=torch.float32)
    angles = torch.outer(positions, frequencies)
    return torch.polar(torch.ones_like(angles), angles)


def apply_rope(x: torch.Tensor, rope: torch.Tensor) -> torch.Tensor:
    pairs = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    rotated = pairs * rope[: x.shape[1]].view(1, x.shape[1], 1, -1)
    return torch.view_as_real(rotated).flatten(3).type_as(x)


class Attention(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.n_heads = config.n_heads
        self.n_kv_heads = config.n_kv_heads
        self.head_dim = config.head_dim
        self.wq = nn.Linear(config.dim, config.n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(config.dim, config.n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(config.dim, config.n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(config.n_heads * self.head_dim, config.dim, bias=False)

    def forward(self, x: torch.Tensor, rope: torch.Tensor) -> torch.Tensor:
        batch, seq_len, _ = x.shape
        q = self.wq(x).view(batch, seq_len, self.n_heads, self.head_dim)
        k = self.wk(x).view(batch, seq_len, self.n_kv_heads, self.head_dim)
        v = self.wv(x).view(batch, seq_len, self.n_kv_heads, self.head_dim)
        q, k = apply_rope(q, rope), apply_rope(k, rope)
        repeats = self.n_heads // self.n_kv_heads
        k = k.repeat_interleave(repeats, dim=2)
        v = v.repeat_interleave(repeats, dim=2)
        out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return self.wo(out.transpose(1, 2).reshape(batch, seq_len, -1))

    def init_weights(self, std: float) -> None:
        for linear in (self.wq, self.wk, self.wv):
            nn.init.trunc_normal_(linear.weight, mean=0.0, std=0.02)
        nn.init.trunc_normal_(self.wo.weight, mean=0.0, std=std)


class FeedForward(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        hidden = int(2 * (4 * config.dim) / 3 * config.ffn_dim_multiplier)
        hidden = config.multiple_of * ((hidden + config.multiple_of - 1) // config.multiple_of)
        self.w1 = nn.Linear(config.dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, config.dim, bias=False)
        self.w3 = nn.Linear(config.dim, hidden, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))

    def init_weights(self, std: float) -> None:
        nn.init.trunc_normal_(self.w1.weight, mean=0.0, std=0.02)
        for linear in (self.w2, self.w3):
            nn.init.trunc_normal_(linear.weight, mean=0.0, std=std)


class TransformerBlock(nn.Module):
    def __init__(self, layer_id: int, config: ModelConfig):
        super().__init__()
        self.layer_id = layer_id
        self.attention = Attention(config)
        self.feed_forward = FeedForward(config)
        self.attention_norm = RMSNorm(config.dim, config.norm_eps)
        self.ffn_norm = RMSNorm(config.dim, config.norm_eps)
        self.dropout = nn.Dropout(config.dropout)
        self.init_std = 0.02 / (2 * (layer_id + 1)) ** 0.5

    def forward(self, x: torch.Tensor, rope: torch.Tensor) -> torch.Tensor:
        h = x + self.dropout(self.attention(self.attention_norm(x), rope))
        return h + self.dropout(self.feed_forward(self.ffn_norm(h)))

    def init_weights(self) -> None:
        for norm in (self.attention_norm, self.ffn_norm):
            norm.reset_parameters()
        self.attention.init_weights(self.init_std)
        self.feed_forward.init_weights(self.init_std)


class Transformer(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.tok_embeddings = nn.Embedding(config.vocab_size, config.dim)
        self.layers = nn.ModuleDict({str(i): TransformerBlock(i, config) for i in range(config.n_layers)})
        self.norm = RMSNorm(config.dim, config.norm_eps)
        self.output = nn.Linear(config.dim, config.vocab_size, bias=False)
        self.register_buffer("rope", precompute_rope(config.head_dim, config.max_seq_len * 2, config.rope_theta), persistent=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h = self.tok_embeddings(tokens)
        for layer in self.layers.values():
            h = layer(h, self.rope)
        return self.output(self.norm(h))

    def init_weights(self, buffer_device: Optional[torch.device] = None) -> None:
        with torch.device(buffer_device or self.rope.device):
            self.rope = precompute_rope(self.config.head_dim, self.config.max_seq_len * 2, self.config.rope_theta)
        nn.init.normal_(self.tok_embeddings.weight)
        for layer in self.layers.values():
            layer.init_weights()
        self.norm.reset_parameters()
        cutoff = self.config.dim ** -0.5
        nn.init.trunc_normal_(self.output.weight, mean=0.0, std=cutoff, a=-3 * cutoff, b=3 * cutoff)

    def num_params(self, exclude_embeddings: bool = True) -> int:
        total = sum(p.numel() for p in self.parameters())
        if exclude_embeddings:
            total -= self.tok_embeddings.weight.numel()
        return total


def flops_per_token(config: ModelConfig, num_params: int) -> float:
    attention = 12 * config.n_layers * config.n_heads * config.head_dim * config.max_seq_len
    return 6 * num_params + attention


# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------


class SyntheticTokens(Dataset):
    """Deterministic token sequences, so that runs can be compared step by step."""

    def __init__(self, vocab_size: int, seq_len: int, samples: int, seed: int):
        self.vocab_size = vocab_size
        self.seq_len = seq_len
        self.samples = samples
        self.seed = seed

    def __len__(self) -> int:
        return self.samples

    def __getitem__(self, index: int) -> Dict[str, torch.Tensor]:
        generator = torch.Generator().manual_seed(self.seed + index)
        tokens = torch.randint(0, self.vocab_size, (self.seq_len + 1,), generator=generator)
        return {"input": tokens[:-1], "labels": tokens[1:]}


def build_dataloader(config: JobConfig, mesh: DeviceMesh, split: str = "train") -> DataLoader:
    samples = config.training.steps * config.training.batch_size * config.training.grad_accumulation * mesh.size()
    if split != "train":
        samples = config.training.eval_steps * config.training.batch_size * mesh.size()
    dataset = SyntheticTokens(config.model.vocab_size, config.training.seq_len, samples, config.training.seed)
    sampler = DistributedSampler(dataset, num_replicas=mesh.size(), rank=mesh.get_local_rank(), shuffle=split == "train")
    return DataLoader(dataset, batch_size=config.training.batch_size, sampler=sampler, num_workers=2, pin_memory=True, drop_last=True)


def infinite(loader: DataLoader) -> Iterator[Dict[str, torch.Tensor]]:
    epoch = 0
    while True:
        if isinstance(loader.sampler, DistributedSampler):
            loader.sampler.set_epoch(epoch)
        yield from loader
        epoch += 1


def to_device(batch: Dict[str, torch.Tensor], device: torch.device) -> Dict[str, torch.Tensor]:
    return {key: value.to(device, non_blocking=True) for key, value in batch.items()}


# ---------------------------------------------------------------------------------------------
# Parallelism
# ---------------------------------------------------------------------------------------------


def init_distributed() -> Tuple[int, int, torch.device]:
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    return dist.get_rank(), dist.get_world_size(), torch.device("cuda", local_rank)


def build_mesh(world_size: int) -> DeviceMesh:
    return init_device_mesh("cuda", (world_size,), mesh_dim_names=("dp_shard",))


def apply_activation_checkpointing(model: Transformer) -> None:
    from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import checkpoint_wrapper

    for name, block in list(model.layers.items()):
        model.layers[name] = checkpoint_wrapper(block, preserve_rng_state=False)


def apply_fsdp(model: Transformer, mesh: DeviceMesh, config: TrainingConfig) -> Transformer:
    """Each block is one FSDP unit, the root (embeddings, final norm, output) another."""
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32) if config.mixed_precision else MixedPrecisionPolicy()
    blocks = list(model.layers.values())
    for index, block in enumerate(blocks):
        # The last block's parameters are gathered again at once by the backward: keep them.
        reshard = config.reshard_after_forward and index < len(blocks) - 1
        fully_shard(block, mesh=mesh, mp_policy=mp_policy, reshard_after_forward=reshard)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy, reshard_after_forward=config.reshard_after_forward)
    return model


def build_model(config: JobConfig, mesh: DeviceMesh, device: torch.device) -> Transformer:
    with torch.device("meta"):
        model = Transformer(config.model)
    if config.training.activation_checkpointing:
        apply_activation_checkpointing(model)
    apply_fsdp(model, mesh, config.training)
    model.to_empty(device=device)
    with torch.no_grad():
        model.init_weights(buffer_device=device)
    if config.training.compile:
        for block in model.layers.values():
            block.compile()
    logger.info("model: %.1fM parameters (%d blocks)", model.num_params() / 1e6, len(model.layers))
    return model


# ---------------------------------------------------------------------------------------------
# Optimizer and schedule
# ---------------------------------------------------------------------------------------------


def parameter_groups(model: nn.Module, weight_decay: float) -> List[Dict[str, Any]]:
    decay, no_decay = [], []
    for name, parameter in model.named_parameters():
        if not parameter.requires_grad:
            continue
        (no_decay if parameter.ndim < 2 or "norm" in name or "embeddings" in name else decay).append(parameter)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


def build_optimizer(model: nn.Module, config: OptimizerConfig) -> torch.optim.Optimizer:
    groups = parameter_groups(model, config.weight_decay)
    return torch.optim.AdamW(groups, lr=config.lr, betas=config.betas, eps=config.eps, fused=config.fused)


def warmup_cosine(config: OptimizerConfig, total_steps: int) -> Callable[[int], float]:
    floor = config.min_lr / config.lr

    def factor(step: int) -> float:
        if step < config.warmup_steps:
            return (step + 1) / config.warmup_steps
        progress = min(1.0, (step - config.warmup_steps) / max(1, total_steps - config.warmup_steps))
        return floor + (1 - floor) * 0.5 * (1 + math.cos(math.pi * progress))

    return factor


def build_scheduler(optimizer: torch.optim.Optimizer, config: JobConfig) -> torch.optim.lr_scheduler.LambdaLR:
    return torch.optim.lr_scheduler.LambdaLR(optimizer, warmup_cosine(config.optimizer, config.training.steps))


# ---------------------------------------------------------------------------------------------
# Checkpointing
# ---------------------------------------------------------------------------------------------


@dataclass
class TrainState:
    step: int = 0
    tokens_seen: int = 0
    best_eval_loss: float = float("inf")

    def state_dict(self) -> Dict[str, Any]:
        return {"step": self.step, "tokens_seen": self.tokens_seen, "best_eval_loss": self.best_eval_loss}

    def load_state_dict(self, state: Dict[str, Any]) -> None:
        self.step = int(state["step"])
        self.tokens_seen = int(state["tokens_seen"])
        self.best_eval_loss = float(state["best_eval_loss"])


class CheckpointManager:
    """Sharded checkpoints through DCP: every rank writes its own shards of the model and the
    optimizer, and reads them back on resume whatever the world size was."""

    def __init__(self, config: CheckpointConfig, dump_folder: str, rank: int):
        self.config = config
        self.folder = Path(dump_folder) / config.folder
        self.rank = rank

    def step_folder(self, step: int) -> Path:
        return self.folder / f"step-{step:08d}"

    def latest_step(self) -> Optional[int]:
        if not self.folder.is_dir():
            return None
        steps = [int(path.name.split("-")[1]) for path in self.folder.glob("step-*") if (path / ".metadata").exists()]
        return max(steps) if steps else None

    def save(self, model: nn.Module, optimizer: torch.optim.Optimizer, train_state: TrainState) -> None:
        started = time.perf_counter()
        model_state, optimizer_state = get_state_dict(model, optimizer)
        state = {"model": model_state, "optimizer": optimizer_state, "train_state": train_state.state_dict()}
        dcp.save(state, checkpoint_id=str(self.step_folder(train_state.step)))
        logger.info("checkpoint: step %d saved in %.1fs", train_state.step, time.perf_counter() - started)
        self.purge()

    def load(self, model: nn.Module, optimizer: torch.optim.Optimizer, train_state: TrainState) -> bool:
        step = self.latest_step() if self.config.resume else None
        if step is None:
            return False
        model_state, optimizer_state = get_state_dict(model, optimizer)
        state = {"model": model_state, "optimizer": optimizer_state, "train_state": train_state.state_dict()}
        dcp.load(state, checkpoint_id=str(self.step_folder(step)))
        set_state_dict(model, optimizer, model_state_dict=state["model"], optim_state_dict=state["optimizer"])
        train_state.load_state_dict(state["train_state"])
        logger.info("checkpoint: resumed from step %d", step)
        return True

    def purge(self) -> None:
        if self.rank != 0 or self.config.keep_latest <= 0:
            return
        steps = sorted(int(path.name.split("-")[1]) for path in self.folder.glob("step-*"))
        for step in steps[: -self.config.keep_latest]:
            shutil.rmtree(self.step_folder(step), ignore_errors=True)

    def export_full(self, model: nn.Module, path: Path) -> None:
        """One file of full tensors for inference: gathered on every rank, written by rank 0."""
        options = StateDictOptions(full_state_dict=True, cpu_offload=True)
        state, _ = get_state_dict(model, [], options=options)
        if self.rank == 0:
            path.parent.mkdir(parents=True, exist_ok=True)
            torch.save(state, path)


# ---------------------------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------------------------


def cross_entropy(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.flatten(0, 1).float(), labels.flatten(0, 1), ignore_index=-100)


def train_step(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LambdaLR,
    batches: List[Dict[str, torch.Tensor]],
    config: JobConfig,
) -> Tuple[torch.Tensor, torch.Tensor]:
    """One optimizer step over `grad_accumulation` micro-batches: gradients are reduced across
    ranks only on the last one."""
    total = torch.zeros((), device=batches[0]["input"].device)
    for index, batch in enumerate(batches):
        last = index == len(batches) - 1
        if isinstance(model, FSDPModule):
            model.set_requires_gradient_sync(last)
        logits = model(batch["input"])
        loss = cross_entropy(logits, batch["labels"]) / len(batches)
        loss.backward()
        total += loss.detach()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), config.optimizer.max_grad_norm, foreach=True)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return total, grad_norm


@torch.no_grad()
def evaluate(model: nn.Module, loader: DataLoader, device: torch.device, steps: int, mesh: DeviceMesh) -> float:
    model.eval()
    losses = []
    for index, batch in enumerate(loader):
        if index >= steps:
            break
        batch = to_device(batch, device)
        losses.append(cross_entropy(model(batch["input"]), batch["labels"]))
    model.train()
    mean = torch.stack(losses).mean() if losses else torch.zeros((), device=device)
    return reduce_mean(mean, mesh)


def log_step(
    step: int,
    loss: torch.Tensor,
    grad_norm: torch.Tensor,
    throughput: Throughput,
    writer: MetricsWriter,
    metrics: Dict[str, "Metric"],
    mesh: DeviceMesh,
    lr: float,
) -> None:
    values = {
        "loss": reduce_mean(loss, mesh),
        "grad_norm": float(grad_norm.full_tensor() if hasattr(grad_norm, "full_tensor") else grad_norm),
        "tokens_per_second": throughput.rate(),
        "lr": lr,
    }
    for name, metric in metrics.items():
        metric.update(**values)
        values[name] = metric.compute()
    logger.info("step %d %s", step, format_metrics(values))
    writer.write(step, values)
    throughput.reset()


@contextlib.contextmanager
def maybe_profile(enabled: bool, folder: Path) -> Iterator[Optional[torch.profiler.profile]]:
    if not enabled:
        yield None
        return
    folder.mkdir(parents=True, exist_ok=True)
    with torch.profiler.profile(
        schedule=torch.profiler.schedule(wait=5, warmup=2, active=3, repeat=1),
        on_trace_ready=torch.profiler.tensorboard_trace_handler(str(folder)),
    ) as profiler:
        yield profiler


def train(config: JobConfig) -> None:
    rank, world_size, device = init_distributed()
    setup_logging(config.logging.level, rank)
    torch.manual_seed(config.training.seed)
    mesh = build_mesh(world_size)
    config.save(Path(config.dump_folder) / "config.json")
    model = build_model(config, mesh, device)
    optimizer = build_optimizer(model, config.optimizer)
    scheduler = build_scheduler(optimizer, config)
    checkpoints = CheckpointManager(config.checkpoint, config.dump_folder, rank)
    train_state = TrainState()
    checkpoints.load(model, optimizer, train_state)
    loader = infinite(build_dataloader(config, mesh, "train"))
    eval_loader = build_dataloader(config, mesh, "eval")
    writer = MetricsWriter(os.path.join(config.dump_folder, config.logging.metrics_file or ""), rank)
    metrics = {name: METRICS[name]() for name in config.logging.metrics if name in METRICS}
    throughput = Throughput()
    tokens_per_step = config.training.batch_size * config.training.seq_len * config.training.grad_accumulation * world_size
    with maybe_profile(os.environ.get("PROFILE") == "1", Path(config.dump_folder) / "profile") as profiler:
        while train_state.step < config.training.steps:
            batches = [to_device(next(loader), device) for _ in range(config.training.grad_accumulation)]
            loss, grad_norm = train_step(model, optimizer, scheduler, batches, config)
            train_state.step += 1
            train_state.tokens_seen += tokens_per_step
            throughput.add(tokens_per_step)
            if profiler is not None:
                profiler.step()
            if train_state.step % config.logging.log_every == 0:
                log_step(train_state.step, loss, grad_norm, throughput, writer, metrics, mesh, scheduler.get_last_lr()[0])
            if train_state.step % config.training.eval_every == 0:
                eval_loss = evaluate(model, eval_loader, device, config.training.eval_steps, mesh)
                train_state.best_eval_loss = min(train_state.best_eval_loss, eval_loss)
                logger.info("eval: step %d loss %.4f (best %.4f)", train_state.step, eval_loss, train_state.best_eval_loss)
            if train_state.step % config.checkpoint.interval == 0:
                checkpoints.save(model, optimizer, train_state)
    checkpoints.save(model, optimizer, train_state)
    checkpoints.export_full(model, Path(config.dump_folder) / "final" / "model.pt")
    dist.barrier()
    dist.destroy_process_group()
'''

_MAIN = '''

def main(argv: Optional[List[str]] = None) -> None:
    config = parse_args(argv)
    train(config)


if __name__ == "__main__":
    main()
'''

# One registered metric: a different statistic of the logged values per index, so that no two
# classes are alike.
_STATISTICS = (
    ("ema", "self.alpha * value + (1 - self.alpha) * self.state"),
    ("peak", "max(self.state, value)"),
    ("trough", "min(self.state, value) if self.count else value"),
    ("sum", "self.state + value"),
    ("sumsq", "self.state + value * value"),
    ("absdev", "self.state + abs(value - self.last)"),
)
_KEYS = ("loss", "grad_norm", "tokens_per_second", "lr")


def _metric(index: int) -> str:
    kind, update = _STATISTICS[index % len(_STATISTICS)]
    key = _KEYS[(index // len(_STATISTICS)) % len(_KEYS)]
    name = f"{key}_{kind}_{index}"
    alpha = round(0.5 + 0.45 * ((index * 37) % 10) / 10, 3)
    return f'''

@register_metric("{name}")
class {"".join(part.title() for part in name.split("_"))}(Metric):
    """The {kind} of `{key}` over the logged steps (smoothing {alpha})."""

    def __init__(self, alpha: float = {alpha}):
        self.alpha = alpha
        self.reset()

    def update(self, **values: float) -> None:
        value = values.get("{key}")
        if value is None or math.isnan(value):
            return
        self.state = {update}
        self.last = value
        self.count += 1

    def compute(self) -> float:
        if not self.count:
            return float("nan")
        return self.state / self.count if "{kind}" in ("sum", "absdev") else self.state

    def reset(self) -> None:
        self.state = 0.0
        self.last = 0.0
        self.count = 0
'''


def training_file(lines: int = 1000) -> str:
    """The script, with metric classes added until it has at least `lines` lines (the core alone
    is about 700)."""
    parts: List[str] = [_HEADER]
    count = _HEADER.count("\n") + _MAIN.count("\n")
    index = 0
    while count < lines:
        metric = _metric(index)
        parts.append(metric)
        count += metric.count("\n")
        index += 1
    parts.append(_MAIN)
    return "".join(parts)


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000, help="at least this many lines (default 1000)")
    args = parser.parse_args(list(argv) or None)
    sys.stdout.write(training_file(args.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
