"""Runtime check FSD105: meta-device tensors left uninitialised at the first forward."""

import weakref
from typing import Any, List, NamedTuple, Sequence

import torch
import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck

_SAMPLE = 256


def _sample(tensor: torch.Tensor) -> torch.Tensor:
    """Up to 256 evenly strided elements as raw bytes: a bitwise fingerprint of the contents."""
    flat = tensor.detach().reshape(-1)
    step = max(1, flat.numel() // _SAMPLE)
    return flat[::step][:_SAMPLE].clone().view(torch.uint8)


class _Record(NamedTuple):
    owner: "weakref.ReferenceType[nn.Module]"
    kind: str  # "_parameters" or "_buffers"
    name: str
    path: str
    tensor: torch.Tensor  # not a weakref: torch.utils.swap_tensors refuses weakly referenced tensors
    version: int
    sample: torch.Tensor

    def unchanged(self) -> bool:
        owner = self.owner()
        current = getattr(owner, self.kind).get(self.name) if owner is not None else None
        if current is None or current is not self.tensor:
            return False
        local = torch_shims.local_tensor(current)
        return current._version == self.version and torch.equal(_sample(local), self.sample)


class MetaInitIncomplete(RuntimeCheck):
    """Parameters or buffers were never initialised after meta-device construction.

    ## What it does
    At the root's first forward, reports parameters and buffers still on the meta device.
    It also fingerprints every tensor that ``module.to_empty()`` allocates (identity, version
    counter and a strided byte sample of the local shard) and, at the first forward, reports
    the tensors whose fingerprint never changed: ``to_empty`` without ``reset_parameters()``,
    ``init_weights()`` or a checkpoint load. When part of the model was initialised, an
    untouched tensor is reported only if it holds non-zero bytes, so a bias that memory
    happened to zero and ``.data.zero_()`` left alike is not a false alarm.

    ## Why it matters
    ``to_empty`` allocates uninitialised memory: training starts from garbage (NaN losses,
    huge weights) or zeros, silently. Buffers computed in ``__init__`` (RoPE ``inv_freq``) are
    lost the same way.

    ## When
    Once, at the first forward of the root, before FSDP's first all-gather. Each rank
    fingerprints its own shards, so the ranks exchange what they found through the store and
    all stop with the same error, naming the same tensors.
    """

    code = "FSD105"
    name = "meta-init-incomplete"

    def __init__(self, guard: Any) -> None:
        super().__init__(guard)
        self._pending: List[List[_Record]] = []

    def on_materialized(self, module: nn.Module) -> None:
        records = []
        for prefix, sub in module.named_modules():
            for kind in ("_parameters", "_buffers"):
                for name, tensor in getattr(sub, kind).items():
                    if tensor is None:
                        continue
                    local = torch_shims.local_tensor(tensor)
                    if local.numel() == 0 or local.is_meta:  # an empty shard never changes
                        continue
                    path = f"{prefix}.{name}" if prefix else name
                    records.append(
                        _Record(weakref.ref(sub), kind, name, path, tensor, tensor._version, _sample(local))
                    )
        self._pending.append(records)

    def on_root_init(self, root: nn.Module, states: Sequence[Any]) -> None:
        on_meta = [name for name, t in root.named_parameters() if t.is_meta]
        on_meta += [name for name, t in root.named_buffers() if t.is_meta]
        if on_meta:
            self.report(
                f"{len(on_meta)} parameters/buffers of {naming.describe(root)} are still on the meta "
                f"device at the first forward (e.g. `{'`, `'.join(on_meta[:3])}`).",
                "materialise and initialise them before training: `model.to_empty(device=...)`, then "
                "`reset_parameters()`/`init_weights()` for every module (or load a checkpoint).",
                key="meta:" + on_meta[0],
            )
        pending, self._pending = self._pending, []
        untouched: List[str] = []
        for records in pending:
            found = [record for record in records if record.unchanged()]
            if found and len(found) < len(records):
                found = [record for record in found if bool(record.sample.any())]
            untouched += [record.path for record in found]
        self.guard.facts["uninitialised"] = untouched

    def on_ranks_agreed(self, records: Sequence[dict]) -> None:
        """Every rank fingerprints its own shards (an empty shard is skipped): report the union, on every rank."""
        untouched = sorted({path for record in records for path in record.get("facts", {}).get("uninitialised", [])})
        if untouched:
            self.report(
                f"{len(untouched)} tensors allocated by `to_empty()` were never initialised "
                f"(e.g. `{'`, `'.join(untouched[:3])}`): they hold whatever was in memory, so training "
                "starts from garbage.",
                "after `model.to_empty(device=...)`, initialise every parameter and buffer: call "
                "each module's `reset_parameters()` (or your `init_weights()`), or load a "
                "checkpoint with `set_model_state_dict`/`dcp.load`.",
                key="to_empty:" + untouched[0],
                rank_local=False,
            )
