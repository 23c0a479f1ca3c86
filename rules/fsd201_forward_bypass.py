from __future__ import annotations

from typing import List, Tuple

from astroid import nodes

from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.unit_parts import runs_unit_outside_forward
from fsdp_lint.analysis.values import BoundMethod, Obj, path_covers
from fsdp_lint.engine.rule import Invalid, Rule, Valid
from fsdp_lint.violation import Edit, Fix


class ForwardBypass(Rule):
    """`.forward(...)` called directly on a sharded module skips FSDP's hooks.

    ## What it does
    Reports `m.forward(...)`, or a call through a stored `f = m.forward`, where `m` was passed to
    `fully_shard` (or returned by it, or by a helper that shards) or is a submodule of such a
    module. Reports too the other ways to run a unit's own parts outside its forward, for a unit
    below the root (the root keeps its parameters gathered from its forward to the backward): a
    method of it other than `forward` that runs its own layers (`encoder.forward_features(x)`,
    not registered with `register_fsdp_forward_method`), and one of its own layers called on its
    own (`encoder.patch_embed(x)`).

    ## Why is this bad?
    FSDP2 does its work in forward pre- and post-hooks that `nn.Module.__call__` runs:
    all-gather the sharded parameters before the forward, free them after, register the
    backward hooks that reduce-scatter the gradients. `m.forward(x)` runs none of them. When the
    parameters are sharded, torch fails with the cryptic
    `aten.addmm.default got mixed torch.Tensor and DTensor`; when they happen to be unsharded
    (after an evaluation forward of the root, or after `unshard()`), training goes on silently
    with gradients that are never reduced and parameters that never change.

    ## Example
    ```python
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    loss = model.forward(batch).sum()
    ```

    Use instead:
    ```python
    loss = model(batch).sum()
    ```
    For another method that must run with gathered parameters (`generate`), register it with
    `register_fsdp_forward_method(model, "generate")`.

    `--fix` rewrites `m.forward(x)` to `m(x)`.
    """

    code = "FSD201"
    name = "forward-bypass"
    message = "`{target}.forward(...)` bypasses FSDP's forward hooks on a sharded module"
    help = "call the module itself: `{target}(...)`"

    VALID = [
        Valid(
            """
            from torch.distributed.fsdp import fully_shard

            class Block(nn.Module):
                def forward(self, x):
                    return super().forward(x)

            model = build()
            fully_shard(model)
            out = model(x)
            """
        ),
        Valid(
            """
            from torch.distributed.fsdp import fully_shard

            head = Head()
            head.forward(x)          # never sharded
            fully_shard(model)
            model.unshard()
            model.forward(x)         # between an explicit unshard and reshard
            model.reshard()
            """
        ),
        Valid(
            """
            from torch.distributed._composable.fully_shard import fully_shard   # the old FSDP1-based API

            fully_shard(model)
            model.forward(x)
            """
        ),
        Valid(
            """
            from torch.distributed.fsdp import fully_shard

            def patch(model):
                original_forward = model.forward
                def forward(*args, **kwargs):
                    return original_forward(*args, **kwargs)
                model.forward = forward

            fully_shard(model)
            patch(model)
            """
        ),
        Valid(
            """
            from torch.distributed.fsdp import fully_shard

            model.forward(x)          # before sharding: a plain module
            fully_shard(model)
            """
        ),
        Valid(
            """
            import torch

            class Trainer:                             # no code of the tree drives it: which of
                def setup(self):                       # its methods runs first is unknown
                    torch.distributed.fsdp.fully_shard(self.model)

                def step(self, batch):
                    return self.model.forward(batch)
            """
        ),
        Valid(
            """
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            class Encoder(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.embed = nn.Linear(8, 8)
                    self.blocks = nn.ModuleList([Block() for _ in range(2)])

                def features(self, x):
                    return self.embed(x)

            class Model(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.encoder = Encoder()

            model = Model()
            for block in model.encoder.blocks:
                fully_shard(block)
            fully_shard(model.encoder, reshard_after_forward=False)   # keeps them gathered after a forward
            fully_shard(model)
            model(x)
            feats = model.encoder.features(x)
            """
        ),
        Valid(
            """
            import torch
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            class Encoder(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.pos = nn.Parameter(torch.zeros(8))
                    self.blocks = nn.ModuleList([Block() for _ in range(2)])

                def init_weights(self):
                    nn.init.normal_(self.pos)          # runs on the sharded DTensor
                    return self.pos * 0.02 + 1.0       # a DTensor with constants

                def run_blocks(self, h):
                    for block in self.blocks:          # units of their own
                        h = block(h)
                    return h

            class Model(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.encoder = Encoder()

            model = Model()
            for block in model.encoder.blocks:
                fully_shard(block)
            fully_shard(model.encoder)
            fully_shard(model)
            model.encoder.init_weights()
            h = model.encoder.run_blocks(x)
            n = sum(p.numel() for p in model.encoder.parameters())
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            class Encoder(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.embed = nn.Linear(8, 8)
                    self.pos = nn.Parameter(torch.zeros(8))
                    self.blocks = nn.ModuleList([Block() for _ in range(2)])

                def features(self, x):
                    return self.embed(x) + self.pos

                def forward(self, x):
                    return self.features(x)

            class Model(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.encoder = Encoder()
                    self.head = nn.Linear(8, 2)

            model = Model()
            for block in model.encoder.blocks:
                fully_shard(block)
            fully_shard(model.encoder)
            fully_shard(model)
            logits = model.head(model(x))           # the root's own layer: gathered after its forward
            model.unshard()                         # gathers the root's parameters, not the encoder's
            feats = model.encoder.features(x)       # expect: FSD201
            tokens = model.encoder.embed(x)         # expect: FSD201
            model.encoder.unshard()
            feats = model.encoder.features(x)       # gathered by its own unshard()
            """
        ),
        Invalid(
            """
            import torch
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            class Encoder(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.pos = nn.Parameter(torch.zeros(8))
                    self.blocks = nn.ModuleList([Block() for _ in range(2)])

                def add_position(self, h):
                    return h + self.pos

            class Model(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.encoder = Encoder()

            model = Model()
            for block in model.encoder.blocks:
                fully_shard(block)
            fully_shard(model.encoder)
            fully_shard(model)
            with torch.no_grad():
                h = model.encoder.add_position(x)   # expect: FSD201
            """
        ),
        Invalid(
            """
            from torch.distributed.fsdp import fully_shard as shard

            for layer in model.layers:
                shard(layer)
            shard(model)
            out = model.forward(x)            # expect: FSD201
            h = model.layers[0].forward(x)    # expect: FSD201
            model.unshard()                   # prefetching, not a reshard-bracketed call
            loss = model.forward(x)           # expect: FSD201
            """,
            fixed="""
            from torch.distributed.fsdp import fully_shard as shard

            for layer in model.layers:
                shard(layer)
            shard(model)
            out = model(x)            # expect: FSD201
            h = model.layers[0](x)    # expect: FSD201
            model.unshard()                   # prefetching, not a reshard-bracketed call
            loss = model(x)           # expect: FSD201
            """,
        ),
        Invalid(
            """
            import functools
            import torch.distributed.fsdp as fsdp

            shard = functools.partial(fsdp.fully_shard, reshard_after_forward=True)
            model = shard(Model())
            f = model.forward
            f(x)                              # expect: FSD201
            """
        ),
        Invalid(
            """
            import torch

            class Trainer:
                def setup(self):
                    torch.distributed.fsdp.fully_shard(self.model)

                def step(self, batch):
                    return self.model.forward(batch)   # expect: FSD201

                def fit(self, batches):
                    self.setup()                       # the driver: setup, then the steps
                    for batch in batches:
                        self.step(batch)
            """,
            fixed="""
            import torch

            class Trainer:
                def setup(self):
                    torch.distributed.fsdp.fully_shard(self.model)

                def step(self, batch):
                    return self.model(batch)   # expect: FSD201

                def fit(self, batches):
                    self.setup()                       # the driver: setup, then the steps
                    for batch in batches:
                        self.step(batch)
            """,
        ),
        Invalid(
            {
                "pkg/__init__.py": "",
                "pkg/parallel.py": """
                    from torch.distributed._composable.fsdp import fully_shard

                    def apply_fsdp(model):
                        for block in model.blocks:
                            fully_shard(block)
                        fully_shard(model)
                        return model
                    """,
                "pkg/train.py": """
                    from pkg.parallel import apply_fsdp

                    def main():
                        model = apply_fsdp(Transformer())
                        for batch in loader:
                            loss = model.forward(batch)   # expect: FSD201
                    """,
            },
            fixed={
                "pkg/train.py": """
                    from pkg.parallel import apply_fsdp

                    def main():
                        model = apply_fsdp(Transformer())
                        for batch in loader:
                            loss = model(batch)   # expect: FSD201
                    """,
            },
        ),
        Invalid(
            {
                "shard_utils.py": """
                    from torch.distributed.fsdp import fully_shard

                    def shard_model(model):
                        fully_shard(model)
                    """,
                "train.py": """
                    from shard_utils import shard_model

                    def evaluate(model, batch):
                        return model.forward(batch)       # expect: FSD201

                    def main(model):
                        shard_model(model)
                        evaluate(model, next(loader))
                    """,
            },
            fixed={
                "train.py": """
                    from shard_utils import shard_model

                    def evaluate(model, batch):
                        return model(batch)       # expect: FSD201

                    def main(model):
                        shard_model(model)
                        evaluate(model, next(loader))
                    """,
            },
        ),
    ]

    def __init__(self, reporter):
        super().__init__(reporter)
        # Calls after an explicit `unshard()`: a violation unless a `reshard()` follows.
        self._after_unshard: List[Tuple[nodes.Call, Obj]] = []

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        func = node.func
        if isinstance(func, nodes.Attribute) and func.attrname == "reshard":
            resharded = flow.value(func.expr)
            if isinstance(resharded, Obj):
                self._after_unshard = [(c, o) for c, o in self._after_unshard if not path_covers(resharded, o)]
            return
        if _is_super_call(func):
            return
        method = next((
            m for m in flow.options(func)
            if isinstance(m, BoundMethod) and m.name == "forward" and flow.may_be_sharded(m.owner)
            and not (flow.self_root is not None and m.owner.root == flow.self_root and not m.owner.attrs)
        ), None)
        if method is None:
            self._check_unit_parts(node, flow)
            return
        if flow.explicitly_unsharded(method.owner):
            self._after_unshard.append((node, method.owner))
            return
        self._report_bypass(node, method.owner, flow)

    def _check_unit_parts(self, node: nodes.Call, flow: Flow) -> None:
        outside = runs_unit_outside_forward(flow, node)
        if outside is None:
            return
        unit = node.func.expr.as_string() if isinstance(node.func, nodes.Attribute) else flow.shown(outside.unit)
        if outside.method:
            message = f"`{unit}.{outside.part}(...)` runs the layers of the sharded unit `{unit}` outside its forward"
            help = f"call `{unit}(...)`, or register the method: `register_fsdp_forward_method({unit}, \"{outside.part}\")`"
        else:
            message = f"`{unit}.{outside.part}` belongs to the sharded unit `{unit}` and runs here outside its forward"
            help = f"run it inside `{unit}`'s forward, through `{unit}(...)`"
        self.report(node, message, help=help, subject=outside.unit)

    def on_function_end(self, flow: Flow) -> None:
        for node, owner in self._after_unshard:
            self._report_bypass(node, owner, flow)
        self._after_unshard = []

    def _report_bypass(self, node: nodes.Call, owner: Obj, flow: Flow) -> None:
        target = flow.shown(owner)
        fix = None
        if isinstance(node.func, nodes.Attribute) and node.func.attrname == "forward":
            receiver = node.func.expr
            # Safe: the call goes through `nn.Module.__call__`, which runs `forward` with the same
            # arguments and adds the hooks, FSDP's among them: what the call was meant to do.
            fix = Fix.safe(Edit(receiver.end_lineno, receiver.end_col_offset, node.func.end_lineno, node.func.end_col_offset, ""))
        self.report(node, self.message.format(target=target), help=self.help.format(target=target), fix=fix, subject=owner)


def _is_super_call(func: nodes.NodeNG) -> bool:
    return (
        isinstance(func, nodes.Attribute)
        and isinstance(func.expr, nodes.Call)
        and isinstance(func.expr.func, nodes.Name)
        and func.expr.func.name == "super"
    )
