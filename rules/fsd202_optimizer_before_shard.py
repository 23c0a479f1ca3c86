from __future__ import annotations

from typing import Set

from fsdp_lint.analysis.flow import Flow, Point
from fsdp_lint.engine.rule import Invalid, Option, Rule, Valid

# Framework calls that take an optimizer built over the unsharded model and rebuild or remap it
# after sharding (accelerate's `prepare`, composer's `parallelize_model`, Lightning Fabric).
OPTIMIZER_REMAPPING_CALLS = frozenset(
    {"prepare", "prepare_optimizer", "parallelize_model", "setup", "setup_optimizers", "setup_module_and_optimizers"}
)


class OptimizerBeforeShard(Rule):
    """An optimizer built over a model's parameters before `fully_shard` replaced them.

    ## What it does
    Reports the construction of an optimizer over `m.parameters()` (or `named_parameters()`,
    param-group lists, a helper that builds such an optimizer, or unknown code given the
    parameters whose result is then stepped) that comes, on one path, before `fully_shard` of
    `m`, of one of its submodules or of a module that contains `m`, or before `m`'s parameters
    are replaced: `m.load_state_dict(sd, assign=True)` or a new `nn.Parameter` assigned to `m`.
    An optimizer built in a helper is reported at the call of that helper.

    A list of the parameters collected before `fully_shard` (`[p for p in m.parameters() if
    p.requires_grad]`, `list(m.parameters())`), here or by a helper that returns it, holds the
    old tensors too: an optimizer built over it after the sharding is reported (a generator
    expression reads the parameters only when the optimizer consumes it).

    ## Why is this bad?
    `fully_shard` replaces every parameter it manages with a new DTensor parameter. The optimizer
    still holds the old tensors: they never receive gradients, so `optimizer.step()` updates
    nothing, and the loss does not move. Torch raises no error.

    ## Example
    ```python
    model = Transformer()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    ```

    Use instead:
    ```python
    model = Transformer()
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ```
    An optimizer handed to a framework that rebuilds it after sharding
    (`accelerator.prepare(model, optimizer)`) is not reported, nor one whose param groups are
    rebuilt over the sharded parameters after the last `fully_shard` on every run that reaches it
    (`optimizer.param_groups.clear()` then `add_param_group(...)`, each `group["params"]`
    replaced), also by the code after the `yield` of a context manager the sharding runs in.
    """

    code = "FSD202"
    name = "optimizer-before-shard"
    message = "optimizer `{cls}` is built over `{owner}`'s parameters{collected} before {replaced}; it will train nothing"
    help = "build the optimizer after every fully_shard call"
    OPTIONS = [
        Option(
            "extend-remapping-calls",
            "names of calls (functions or methods) that rebuild the optimizers passed to them after sharding",
            OPTIMIZER_REMAPPING_CALLS,
        )
    ]

    VALID = [
        Valid(
            """
            import copy
            import torch
            from torch.distributed.fsdp import fully_shard

            model = Transformer()
            ref_model = copy.deepcopy(model)
            ref_optim = torch.optim.Adam(ref_model.parameters())   # over a reference copy
            for layer in model.layers:
                fully_shard(layer)
            fully_shard(model)
            optim = torch.optim.Adam(model.parameters(), lr=1e-2)
            """
        ),
        Valid(
            """
            import torch
            from accelerate import Accelerator
            from torch.distributed.fsdp import fully_shard

            accelerator = Accelerator()
            model = Model()
            optimizer = torch.optim.AdamW(model.parameters())
            fully_shard(model)
            model, optimizer = accelerator.prepare(model, optimizer)
            """
        ),
        Valid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            other = Model()
            opt = torch.optim.SGD(other.parameters(), lr=0.1)
            fully_shard(model)
            scheduler = torch.optim.lr_scheduler.StepLR(opt, 1)
            """
        ),
        Valid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            def build():
                model = Model()
                fully_shard(model)
                return model

            model = build()
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            restored = build()             # a second model: sharding it leaves `optimizer` intact
            """
        ),
        Valid(
            """
            import torch
            from contextlib import contextmanager
            from torch.distributed.fsdp import fully_shard

            @contextmanager
            def optimizer_follows_sharding(optimizer, model):
                names = {param: name for name, param in model.named_parameters()}
                yield
                sharded = dict(model.named_parameters())
                for group in optimizer.param_groups:
                    group["params"] = [sharded[names[p]] for p in group["params"]]

            model = Transformer()
            optimizer = torch.optim.AdamW(model.parameters())
            with optimizer_follows_sharding(optimizer, model):   # rebuilt when the block ends
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)
            """
        ),
        Valid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            model = Transformer()
            trainable = (p for p in model.parameters() if p.requires_grad)   # read when the optimizer consumes it
            for layer in model.layers:
                fully_shard(layer)
            fully_shard(model)
            optimizer = torch.optim.AdamW(trainable, lr=1e-4)
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            model = Transformer()
            trainable = [p for p in model.parameters() if p.requires_grad]   # the tensors of now
            for layer in model.layers:
                fully_shard(layer)
            fully_shard(model)
            optimizer = torch.optim.AdamW(trainable, lr=1e-4)   # expect: FSD202
            """
        ),
        Invalid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            def main():
                model = Transformer()
                params = list(model.parameters())
                optimizer = torch.optim.AdamW(params, lr=3e-4)   # expect: FSD202
                for block in model.layers:
                    fully_shard(block)
                fully_shard(model)
            """
        ),
        Invalid(
            """
            from torch.optim import AdamW
            from torch.distributed.fsdp import fully_shard

            model = Transformer()
            groups = [
                {"params": model.embed.parameters(), "lr": 1e-3},
                {"params": model.layers.parameters()},
            ]
            opt = AdamW(groups)                                  # expect: FSD202
            for layer in model.layers:
                fully_shard(layer)
            """
        ),
        Invalid(
            {
                "optim.py": """
                    import torch

                    def build_optimizer(model, lr):
                        return torch.optim.AdamW(model.parameters(), lr=lr)
                    """,
                "parallel.py": """
                    from torch.distributed.fsdp import fully_shard

                    def apply_fsdp(model):
                        for block in model.blocks:
                            fully_shard(block)
                        fully_shard(model)
                    """,
                "train.py": """
                    from optim import build_optimizer
                    from parallel import apply_fsdp

                    class Trainer:
                        def setup(self):
                            self.model = Transformer()
                            self.optimizer = build_optimizer(self.model, 1e-4)   # expect: FSD202
                            apply_fsdp(self.model)
                    """,
            }
        ),
    ]

    def on_function_end(self, flow: Flow) -> None:
        remapping = frozenset(self.option("extend-remapping-calls"))
        reported: Set[int] = set()
        for built in flow.optimizers:
            optimizer = built.optimizer
            if id(optimizer.node) in reported or flow.handed_to(optimizer, remapping):
                continue
            since, collected = flow.params_since(built)
            for event in flow.events + flow.replacements:
                if not flow.happens_before(since, Point(event.seq, event.path)) or flow.rebuilt_after(optimizer, since, event):
                    continue  # built after it, or its param groups were rebuilt over the new parameters since
                owner = next((
                    o for o in optimizer.over
                    if flow.contains(o, event.target, at=event.seq, must=True) or flow.contains(event.target, o, at=event.seq, must=True)
                ), None)
                if owner is not None:
                    reported.add(id(optimizer.node))
                    line = event.node.lineno
                    replaced = f"line {line} replaces them with new parameters" if event in flow.replacements else f"`fully_shard` (line {line}) replaces them"
                    at = f" collected at line {collected.lineno}," if collected is not None else ""
                    fields = {"cls": optimizer.cls_name, "owner": flow.shown(owner), "collected": at, "replaced": replaced}
                    self.report(optimizer.node, self.message.format(**fields))
                    break

