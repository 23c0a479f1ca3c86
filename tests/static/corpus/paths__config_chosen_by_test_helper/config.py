"""The run's parallelism settings, as plain dataclasses (no torch). A script may also pass a dict,
`{"fsdp": options}`, which `Trainer` parses into a `ParallelConfig`."""

from dataclasses import dataclass
from typing import Optional


@dataclass
class FSDPOptions:
    """FullyShardedDataParallel (FSDP1): one flat parameter per wrapped block."""

    use_orig_params: bool = True
    sync_module_states: bool = False


@dataclass
class FSDP2Options:
    """Per-parameter sharding (FSDP2): one unit per block and the root."""

    reshard_after_forward: bool = True


@dataclass
class ParallelConfig:
    fsdp: Optional[FSDPOptions] = None
    fsdp2: Optional[FSDP2Options] = None
    tp_degree: Optional[int] = None
