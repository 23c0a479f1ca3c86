from __future__ import annotations

from typing import Optional

from astroid import nodes

from fsdp_lint.analysis.conditions import mentions_rank
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.names import binding_of
from fsdp_lint.engine.rule import Invalid, Rule, Valid

PLAIN_LOADERS = frozenset({"torch.load", "torch.serialization.load", "safetensors.torch.load_file", "safetensors.torch.load"})
# Calls that turn plain tensors into DTensors (or load through DCP's state-dict API instead).
DISTRIBUTING_CALLS = frozenset({"distribute_tensor", "from_local", "set_model_state_dict", "set_state_dict", "load_from_full_model_state_dict"})
_MAX_DEPTH = 4


class PlainStateDictLoad(Rule):
    """`model.load_state_dict(torch.load(...))` of full plain tensors into a sharded model.

    ## What it does
    Reports `load_state_dict` on a module that `fully_shard` sharded (or that holds sharded
    submodules) when its argument comes from `torch.load` or safetensors' `load_file` (directly,
    through variables, or an item of the loaded dict), in a function that calls neither
    `distribute_tensor` nor `set_model_state_dict`. Files whose name contains the rank
    (`f"model_rank{rank}.pt"`) are per-rank shards saved from the same layout and are not reported.

    ## Why is this bad?
    After `fully_shard` the module's parameters are DTensors holding 1/N of each tensor. A
    checkpoint saved with `torch.save` holds full plain tensors: `load_state_dict` fails with
    `got mixed torch.Tensor and DTensor`, or with `assign=True` silently replaces the sharded
    parameters by full plain tensors that FSDP no longer manages.

    ## Example
    ```python
    fully_shard(model)
    model.load_state_dict(torch.load("model.pt"))
    ```

    Use instead:
    ```python
    from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict
    full = torch.load("model.pt", mmap=True, weights_only=True)
    set_model_state_dict(model, full, options=StateDictOptions(full_state_dict=True))
    ```
    """

    code = "FSD302"
    name = "plain-state-dict-load"
    severity = "error"
    message = "`{target}.load_state_dict` gets full plain tensors from `{loader}`, but `{target}` is sharded (DTensor parameters)"
    help = "load with set_model_state_dict(model, sd, options=StateDictOptions(full_state_dict=True)), or distribute_tensor each value first"

    VALID = [
        Valid(
            """
            import torch
            from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict
            from torch.distributed.fsdp import fully_shard

            model.load_state_dict(torch.load("init.pt"))          # before sharding: plain module
            fully_shard(model)
            full = torch.load("model.pt", mmap=True)
            set_model_state_dict(model, full, options=StateDictOptions(full_state_dict=True))
            model.load_state_dict(torch.load(f"model_rank{rank}.pt"))   # this rank's own shards
            """
        ),
        Valid(
            """
            import torch
            from torch.distributed.tensor import distribute_tensor
            from torch.distributed.fsdp import fully_shard

            def load(model, path):
                fully_shard(model)
                full = torch.load(path)
                meta = model.state_dict()
                sharded = {k: distribute_tensor(v, meta[k].device_mesh, meta[k].placements) for k, v in full.items()}
                model.load_state_dict(sharded, assign=True)
            """
        ),
        Valid(
            """
            import os
            import torch
            from torch.distributed.fsdp import fully_shard

            def load_shards(model, directory, rank):
                fully_shard(model)
                path = os.path.join(directory, f"model_rank{rank}.bin")   # this rank's own shards
                model.load_state_dict(torch.load(path))
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            def resume(model, path):
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)
                model.load_state_dict(torch.load(path, map_location="cpu"))      # expect: FSD302
                checkpoint = torch.load(path)
                model.load_state_dict(checkpoint["model"])                       # expect: FSD302
            """
        ),
        Invalid(
            {
                "parallel.py": """
                    from torch.distributed.fsdp import fully_shard

                    def shard(model):
                        for block in model.blocks:
                            fully_shard(block)
                        fully_shard(model)
                        return model
                    """,
                "train.py": """
                    from safetensors.torch import load_file
                    from parallel import shard

                    model = shard(Transformer())
                    weights = load_file("model.safetensors")
                    model.load_state_dict(weights, strict=False)                 # expect: FSD302
                    """,
            }
        ),
    ]

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        func = node.func
        if not isinstance(func, nodes.Attribute) or func.attrname != "load_state_dict" or not node.args:
            return
        target = flow.sharded_object(func.expr, holding=True)
        if target is None:
            return
        loader = _plain_source(node.args[0], flow, 0)
        if loader is None or _distributes(flow):
            return
        self.report(node, self.message.format(target=flow.shown(target), loader=loader), subject=target)


def _plain_source(expr: nodes.NodeNG, flow: Flow, depth: int) -> Optional[str]:
    """The plain loader (`torch.load`) that `expr` comes from, through names and subscripts."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(expr, nodes.Call):
        qname = flow.qualified_name(expr.func)
        if qname in PLAIN_LOADERS:
            if any(mentions_rank(arg) for arg in expr.args[:1]):
                return None
            return qname
        return None
    if isinstance(expr, nodes.Subscript):
        return _plain_source(expr.value, flow, depth + 1)
    if isinstance(expr, nodes.Name):
        binding = binding_of(expr, expr.name)
        if isinstance(binding, nodes.AssignName) and isinstance(binding.parent, nodes.Assign) and binding.scope() is flow.scope:
            return _plain_source(binding.parent.value, flow, depth + 1)
    return None


def _distributes(flow: Flow) -> bool:
    for call in flow.scope.nodes_of_class(nodes.Call):
        func = call.func
        name = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", None)
        if name in DISTRIBUTING_CALLS:
            return True
    return False
