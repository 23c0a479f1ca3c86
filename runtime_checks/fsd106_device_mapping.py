"""Runtime check FSD106: ranks mapped to the wrong accelerator, or parameters on another device."""

import os
from collections import defaultdict
from typing import Any, Dict, List, Sequence

import torch
import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


class DeviceMapping(RuntimeCheck):
    """A rank uses another accelerator than ``LOCAL_RANK`` says, shares one, or its units' params sit elsewhere.

    ## What it does
    At the root's first forward: on CUDA, compares ``torch.cuda.current_device()`` with
    ``LOCAL_RANK`` (FSDP takes its device from the current device, not from ``LOCAL_RANK``);
    checks that every unit's sharded parameters sit on the unit's device (CPU under CPU
    offload); and, through the c10d store, that no two ranks of one host use the same device.

    ## Why it matters
    Without ``torch.cuda.set_device(LOCAL_RANK)`` every rank of a node that touched CUDA before
    its device mesh was made shards onto GPU 0 (the mesh selects the GPU from ``LOCAL_RANK`` only
    while CUDA is untouched), and ranks given the same ``LOCAL_RANK`` share one GPU whatever they
    do: OOM, then NCCL "Duplicate GPU detected", or a hang.

    ## When
    Once, at the first forward of each root, before FSDP's first all-gather.
    """

    code = "FSD106"
    name = "device-mapping"

    def on_root_init(self, root: nn.Module, states: Sequence[Any]) -> None:
        devices = {torch_shims.state_device(state) for state in states}
        accelerator = next((d for d in devices if d.type == "cuda"), None)
        if accelerator is not None:
            current = torch.cuda.current_device()
            self.guard.facts["device"] = f"cuda:{current}"
            local_rank = os.environ.get("LOCAL_RANK")
            if local_rank is not None and int(local_rank) < torch.cuda.device_count() and current != int(local_rank):
                self.report(
                    f"this rank (LOCAL_RANK={local_rank}) uses cuda:{current}; FSDP shards onto the current "
                    "CUDA device, so ranks of one node collide on one GPU.",
                    "call `torch.cuda.set_device(int(os.environ['LOCAL_RANK']))` before "
                    "`init_process_group` (or pass `device_id=` to it) and before creating the mesh.",
                    key="local_rank",
                )
        for state in states:
            for fsdp_param in torch_shims.fsdp_params(state):
                param = torch_shims.sharded_param(fsdp_param)
                expected = torch_shims.expected_device(fsdp_param)
                if param.device.type != "meta" and param.device != expected:
                    module, name = torch_shims.param_owner(fsdp_param)
                    self.report(
                        f"parameter `{naming.param_path(module, name)}` sits on {param.device} while "
                        f"its unit's mesh is on {expected}.",
                        "create the mesh on the device the parameters live on, or move the model "
                        "there before fully_shard.",
                        key=f"param-device:{name}",
                    )
                    return

    def on_ranks_agreed(self, records: Sequence[Dict[str, Any]]) -> None:
        users: Dict[tuple, List[int]] = defaultdict(list)
        for record in records:
            device = record.get("facts", {}).get("device")
            if device:
                users[(record["host"], device)].append(record["rank"])
        for (host, device), ranks in sorted(users.items()):
            if len(ranks) > 1:
                self.report(
                    f"ranks {sorted(ranks)} on host {host} all use {device}.",
                    "give each local rank its own device: `torch.cuda.set_device(int(os.environ"
                    "['LOCAL_RANK']))` before `init_process_group`.",
                    key=f"duplicate:{host}:{device}",
                    rank_local=False,
                )
                return
