"""Runtime check FSD301: ``torch.save`` of an object that contains DTensors."""

import os
import socket
from typing import Any, List, Optional, Tuple

import torch.nn as nn

from fsdp_lint.runtime import torch_shims
from fsdp_lint.runtime.check import RuntimeCheck
from fsdp_lint.runtime.reporter import current_rank

_BUDGET = 200_000  # objects visited at most: a save is never made slow by the walk


def find_dtensor(obj: Any) -> Optional[Tuple[str, Any]]:
    """Path of the first DTensor inside ``obj`` (``obj['model']['fc.weight']``) and the DTensor, or None."""
    stack: List[Tuple[Any, str]] = [(obj, "obj")]
    seen = set()
    while stack and len(seen) < _BUDGET:
        value, path = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if torch_shims.is_dtensor(value):
            return path, value
        if isinstance(value, dict):
            items = [(v, f"{path}[{k!r}]") for k, v in value.items()]
        elif isinstance(value, (list, tuple, set, frozenset)):
            items = [(v, f"{path}[{i}]") for i, v in enumerate(value)]
        elif isinstance(value, nn.Module):
            items = [(t, f"{path}.{name}") for name, t in value.state_dict(keep_vars=True).items()]
        else:
            continue
        stack.extend(reversed(items))
    return None


def _target(destination: Any) -> str:
    """The file a save writes, as comparable across ranks; an in-memory buffer is this process's own."""
    name = getattr(destination, "name", destination)
    if isinstance(name, (str, os.PathLike)):
        return os.path.abspath(os.fspath(name))
    return f"<{type(destination).__name__} of rank {current_rank()}>"


class SaveShardedState(RuntimeCheck):
    """``torch.save`` of DTensors (a sharded state dict) by some ranks only, or by every rank into one file.

    ## What it does
    Walks the object handed to ``torch.save`` (dicts, lists, tuples, modules; bounded) before
    anything is written, and stops at the first DTensor. The ranks of that DTensor's mesh then
    meet through the c10d store: when every one of them saves, each to a file of its own (or
    on its own machine), that is a per-rank checkpoint (accelerate's ``use_dcp=False``) and
    fine. A rank that saves while the others do something else, or ranks that all write the
    same file, are reported.

    ## Why it matters
    Each rank holds only its own shard of every parameter: the common ``if rank == 0:
    torch.save(model.state_dict(), path)`` writes part of the model plus a pickled device mesh,
    and every rank writing one path leaves the last writer's shards. The file loads without
    error; loading it into a plain model fails or silently yields part of a model.

    ## When
    At the ``torch.save`` call; in raise mode no byte is written. The meeting costs a store
    round trip when every rank saves; a lone saver waits until it is clear that the others
    are elsewhere (a collective, another call every rank makes, or gone). The finding goes
    through the store so that the other ranks stop with the same error.
    """

    code = "FSD301"
    name = "save-sharded-state"

    def on_save(self, obj: Any, destination: Any) -> None:
        found = find_dtensor(obj)
        if found is None:
            return
        path, tensor = found
        ranks = torch_shims.dtensor_mesh_ranks(tensor)
        payload = {"target": _target(destination), "host": socket.gethostname()}
        meeting = self.guard.agreement.meet("torch.save() of DTensors", ranks, payload)
        if meeting.complete:
            targets = {(record["host"], record["target"]) for record in meeting.records.values()}
            if len(targets) == len(meeting.records):
                return  # one file per rank: a per-rank sharded checkpoint
            problem = (f"every rank of the mesh saves its own shards into the same file "
                       f"(`{payload['target']}`): the last writer wins, the file holds one rank's shards")
        elif meeting.reason == "diverged":
            elsewhere = "; ".join(f"rank {rank}: {text}" for rank, text in sorted(meeting.absent.items()))
            problem = (f"only rank(s) {sorted(set(ranks) - set(meeting.absent))} save, while rank(s) "
                       f"{sorted(meeting.absent)} do not ({elsewhere}): the file holds only this rank's shards")
        else:
            return  # the other ranks could not be asked: no verdict
        stopped = " The guard stopped it before anything was written." if self.guard.config.mode == "raise" else ""
        self.report(
            f"torch.save() was given DTensors (first at `{path}`) and {problem}, not the model; loading it into "
            f"a plain model fails or yields part of a model.{stopped}",
            "save a sharded checkpoint with DCP (`dcp.save({'model': get_model_state_dict(model)}, "
            "checkpoint_id=...)`), or gather a full state dict on every rank with "
            "`get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))` "
            "and torch.save it on rank 0; per-rank files need every rank to save its own.",
            key=path,
        )
