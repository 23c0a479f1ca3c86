from __future__ import annotations

from astroid import nodes

from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.loads import Loaded
from fsdp_lint.engine.rule import Invalid, Rule, Valid


class PlainStateDictLoad(Rule):
    """`model.load_state_dict(torch.load(...))` of full plain tensors into a sharded model.

    ## What it does
    Reports torch's `load_state_dict` on a module that `fully_shard` sharded (or that holds
    sharded submodules) when the state dict it gets holds full plain tensors on a run that loads
    it there: what `torch.load` or safetensors' `load_file` read (directly, an entry of it, a
    dict of its entries, a helper's return), or `get_model_state_dict(...,
    options=StateDictOptions(full_state_dict=True))`. Files whose name contains the rank
    (`f"model_rank{rank}.pt"`) are per-rank shards saved from the same layout and are not
    reported; values made by `distribute_tensor` are no plain tensors; a class's own
    `load_state_dict` is its code, whose loads are asked where they are.

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
    message = "`{target}.load_state_dict` gets full plain tensors from {source}, but `{target}` is sharded (DTensor parameters)"
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
        load = flow.state_dict_load(node)
        if load is None or load.state is not Loaded.FULL:
            return
        self.report(node, self.message.format(target=flow.shown(load.into), source=load.source), subject=load.into)
