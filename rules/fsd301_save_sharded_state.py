from __future__ import annotations

from typing import Optional

from astroid import nodes

from fsdp_lint.analysis.call_arguments import call_argument
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.paths import Path
from fsdp_lint.analysis.values import Obj, Optimizer, StateDict
from fsdp_lint.engine.rule import Invalid, Rule, Valid

TORCH_SAVE = frozenset({"torch.save", "torch.serialization.save"})


class SaveShardedState(Rule):
    """`torch.save` of a sharded model's or optimizer's state dict keeps only this rank's shards.

    ## What it does
    Reports `torch.save(x, ...)` where `x` is, or contains (in a dict, list or tuple, directly or
    through variables), the `state_dict()` of a sharded module, of a module with sharded
    submodules, or of an optimizer over their parameters; also `get_model_state_dict` /
    `get_state_dict` without `full_state_dict=True`, and copies of such a module's parameters
    (`{name: p.detach().clone() for ...}` over `named_parameters()`, an EMA): DTensors too.

    ## Why is this bad?
    After `fully_shard`, state dicts hold DTensors: each rank owns a slice of every parameter.
    `torch.save` pickles the local shards, so the usual `if rank == 0: torch.save(...)` writes a
    file with half (or 1/N) of the model that only fails, or silently misloads, when it is read
    back with a different world size or without FSDP.

    ## Example
    ```python
    fully_shard(model)
    ...
    if rank == 0:
        torch.save({"model": model.state_dict()}, "ckpt.pt")
    ```

    Use instead:
    ```python
    import torch.distributed.checkpoint as dcp
    dcp.save({"model": get_model_state_dict(model)}, checkpoint_id="ckpt")
    ```
    or gather a full state dict on every rank and save it on one:
    ```python
    options = StateDictOptions(full_state_dict=True, cpu_offload=True)
    state = get_model_state_dict(model, options=options)
    if rank == 0:
        torch.save(state, "ckpt.pt")
    ```
    Saves whose file name contains the rank (`f"model_rank{rank}.pt"`) are deliberate per-rank
    shards and are not reported.
    """

    code = "FSD301"
    name = "save-sharded-state"
    message = "`torch.save` of {what} writes only this rank's shards (DTensors), not the model"
    help = "save with torch.distributed.checkpoint (dcp.save), or gather with get_model_state_dict(..., options=StateDictOptions(full_state_dict=True)) first"

    VALID = [
        Valid(
            """
            import torch
            import torch.distributed.checkpoint as dcp
            from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
            from torch.distributed.fsdp import fully_shard

            for layer in model.layers:
                fully_shard(layer)
            fully_shard(model)
            dcp.save({"model": get_model_state_dict(model)}, checkpoint_id="ckpt")
            full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
            if rank == 0:
                torch.save(full, "model.pt")
            """
        ),
        Valid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            fully_shard(model)
            sharded_sd = model.state_dict()
            cpu_state = {}
            for name, param in sharded_sd.items():
                cpu_state[name] = param.full_tensor().cpu()
            torch.save(cpu_state, "model.pt")
            torch.save(model.state_dict(), f"model_rank{rank}.pt")   # deliberate per-rank shards
            torch.save(dataloader.state_dict(), "loader.pt")
            """
        ),
        Valid(
            """
            import os
            import torch
            from torch.distributed.fsdp import fully_shard

            def save_shards(model, directory, rank):
                fully_shard(model)
                path = os.path.join(directory, f"model_rank{rank}.bin")   # each rank its own file
                torch.save(model.state_dict(), path)
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            def train(model, optimizer):
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)
                optimizer = torch.optim.AdamW(model.parameters())
                checkpoint = {"step": 10}
                checkpoint["model"] = model.state_dict()
                if torch.distributed.get_rank() == 0:
                    torch.save(checkpoint, "ckpt.pt")                      # expect: FSD301
                torch.save(optimizer.state_dict(), "optim.pt")            # expect: FSD301
            """
        ),
        Invalid(
            {
                "checkpointing.py": """
                    import torch

                    def save_checkpoint(model, path):
                        state = {"model": model.state_dict()}
                        torch.save(state, path)                            # expect: FSD301
                    """,
                "train.py": """
                    from torch.distributed.fsdp import fully_shard
                    from checkpointing import save_checkpoint

                    model = Transformer()
                    for block in model.blocks:
                        fully_shard(block)
                    save_checkpoint(model, "last.pt")
                    """,
            }
        ),
        Invalid(
            """
            import torch
            from torch.distributed.checkpoint.state_dict import get_model_state_dict
            from torch.distributed.fsdp import fully_shard

            fully_shard(model)
            torch.save(get_model_state_dict(model), "model.pt")           # expect: FSD301
            """
        ),
    ]

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        if flow.qualified_name(node.func) not in TORCH_SAVE or not node.args:
            return
        if _per_rank_file(node, flow):
            return
        for state, runs in flow.values_on_runs(node.args[0], StateDict):
            what = _sharded_description(state, flow, runs)
            if what is not None:
                self.report(node, self.message.format(what=what))
                return


def _per_rank_file(node: nodes.Call, flow: Flow) -> bool:
    target = call_argument(node, 1, "f")
    return target is not None and flow.names_rank_file(target)


def _sharded_description(state: StateDict, flow: Flow, runs: Path) -> Optional[str]:
    owner = state.owner
    if isinstance(owner, Obj) and flow.may_hold_shards(owner, runs=runs):
        return f"copies of `{flow.shown(owner)}`'s parameters" if state.copies else f"`{flow.shown(owner)}`'s state dict"
    if isinstance(owner, Optimizer) and any(flow.may_hold_shards(o, runs=runs | held) for o, held in owner.held()):  # each on the runs it holds that one
        return f"the state dict of an optimizer over `{flow.shown(owner.over[0])}`"
    return None
