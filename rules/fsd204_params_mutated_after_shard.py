from __future__ import annotations

from typing import Optional

from astroid import nodes

from fsdp_lint.analysis import known_apis
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.values import Obj, Params
from fsdp_lint.engine.rule import Invalid, Rule, Valid

DTYPES = frozenset(
    {"float16", "half", "bfloat16", "float32", "float", "float64", "double", "float8_e4m3fn", "float8_e5m2"}
)
CASTING_METHODS = frozenset({"half", "bfloat16", "float", "double"})


class ParamsMutatedAfterShard(Rule):
    """Parameters of a sharded module cast, replaced or re-pointed after `fully_shard`.

    ## What it does
    Reports, after `fully_shard` of a module: `model.to(torch.bfloat16)` (any dtype cast, also
    `.half()`, `.float()`, `.bfloat16()`, `.double()`), `param.data = ...` on a parameter of the
    module, and a new `nn.Parameter` assigned to it (`m.weight = nn.Parameter(...)`,
    `setattr(m, name, nn.Parameter(...))`, `m.register_parameter(name, ...)`).
    `model.to(device)` and `model.to_empty(device=...)` are fine and not reported.

    ## Why is this bad?
    `fully_shard` records every parameter it manages, with its dtype, and keeps its own sharded
    DTensor copy of each. A dtype cast or a `.data` swap afterwards changes tensors behind FSDP's
    back: the next all-gather uses stale metadata (crashes deep in `foreach_all_gather`), or the
    cast is silently lost and the master weights stay in the old precision. A newly assigned
    `nn.Parameter` is not managed at all: it is never sharded and its gradient never reduced.

    ## Example
    ```python
    fully_shard(model)
    model.to(torch.bfloat16)
    ```

    Use instead:
    ```python
    model.to(torch.bfloat16)            # cast or replace before sharding
    fully_shard(model)
    # or keep fp32 master weights and compute in bf16:
    fully_shard(model, mp_policy=MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32))
    ```
    """

    code = "FSD204"
    name = "params-mutated-after-shard"
    severity = "error"
    message = "{what} after `fully_shard` changes parameters that FSDP already manages on `{target}`"
    help = "cast or replace parameters before fully_shard; for compute precision use MixedPrecisionPolicy"

    VALID = [
        Valid(
            """
            import torch
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            model.to(torch.bfloat16)
            model.head.weight = nn.Parameter(torch.zeros(4))
            for p in model.parameters():
                p.data = p.data.float()
            fully_shard(model)
            model.to("cuda")
            model.to_empty(device="cuda")
            model.to(device)
            for p in model.parameters():
                p.requires_grad = False
            other = Head()
            other.half()
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            def build(model, dtype):
                for block in model.layers:
                    fully_shard(block)
                fully_shard(model)
                model.to(torch.bfloat16)                                   # expect: FSD204
                model.to("cuda", dtype=dtype)                              # expect: FSD204
                model.layers[0].half()                                     # expect: FSD204
                for name, param in model.named_parameters():
                    param.data = param.data.to(torch.float32)             # expect: FSD204
                model.scale = nn.Parameter(torch.ones(1))                  # expect: FSD204
                setattr(model.head, "bias", nn.Parameter(torch.zeros(8)))  # expect: FSD204
            """
        ),
        Invalid(
            {
                "sharding.py": """
                    from torch.distributed.fsdp import fully_shard

                    def apply_fsdp(model):
                        for block in model.blocks:
                            fully_shard(block)
                        fully_shard(model)
                        return model
                    """,
                "train.py": """
                    import torch
                    from sharding import apply_fsdp

                    model = apply_fsdp(Transformer())
                    model.bfloat16()                                            # expect: FSD204
                    """,
            }
        ),
    ]

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        func = node.func
        if isinstance(func, nodes.Name) and func.name == "setattr" and len(node.args) == 3:
            owner = flow.sharded_object(node.args[0])
            if _is_parameter(node.args[2], flow) and owner is not None:
                self._report(node, "a new `nn.Parameter` set with `setattr`", owner)
            return
        if not isinstance(func, nodes.Attribute):
            return
        receiver = flow.sharded_object(func.expr)
        if receiver is None:
            return
        what = _cast(node, func.attrname, flow)
        if what is None and func.attrname == "register_parameter" and len(node.args) == 2 and _is_parameter(node.args[1], flow):
            what = "`register_parameter`"
        if what is not None:
            self._report(node, what, receiver)

    def on_function_end(self, flow: Flow) -> None:
        for assignment in flow.attr_assignments:
            owner = assignment.owner
            if assignment.attr == "data" and isinstance(owner, Params):
                if flow.may_be_sharded(owner.owner, before=assignment.seq):
                    self._report(assignment.node, "`param.data = ...`", owner.owner)
            elif isinstance(owner, Obj) and _is_parameter(assignment.value_node, flow):
                if flow.may_be_sharded(owner, before=assignment.seq):
                    self._report(assignment.node, f"assigning a new `nn.Parameter` to `.{assignment.attr}`", owner)

    def _report(self, node: nodes.NodeNG, what: str, target: Obj) -> None:
        self.report(node, self.message.format(what=what, target=target.display))


def _cast(node: nodes.Call, method: str, flow: Flow) -> Optional[str]:
    """`.to(<dtype>)` / `.half()`-style casts of a module's parameters, described."""
    if method in CASTING_METHODS and not node.args:
        return f"`.{method}()`"
    if method != "to":
        return None
    for keyword in node.keywords or []:
        if keyword.arg == "dtype" and not (isinstance(keyword.value, nodes.Const) and keyword.value.value is None):
            return f"`.to(dtype={keyword.value.as_string()})`"  # whatever it holds, it is a dtype
    for arg in node.args:
        if _is_dtype(arg, flow):
            return f"`.to({arg.as_string()})`"
    return None


def _is_dtype(expr: nodes.NodeNG, flow: Flow) -> bool:
    """A positional argument of `.to()` that names a dtype: `torch.bfloat16`, or a variable or
    attribute called `dtype` or `*_dtype` (`cfg.param_dtype`, `stage.dtype`)."""
    if isinstance(expr, nodes.Attribute):
        qname = flow.qualified_name(expr) or ""
        return (qname.startswith("torch.") and expr.attrname in DTYPES) or _dtype_name(expr.attrname)
    if isinstance(expr, nodes.Name):
        return _dtype_name(expr.name)
    return False


def _dtype_name(name: str) -> bool:
    return name == "dtype" or name.endswith("_dtype")


def _is_parameter(expr: Optional[nodes.NodeNG], flow: Flow) -> bool:
    return expr is not None and known_apis.is_parameter_call(expr, flow.qualified_name)
