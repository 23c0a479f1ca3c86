from __future__ import annotations

from typing import Optional

from astroid import nodes

from fsdp_lint.analysis import known_apis
from fsdp_lint.analysis.flow import Flow, Point
from fsdp_lint.analysis.values import Obj, Params
from fsdp_lint.engine.rule import Invalid, Rule, Valid

DTYPES = frozenset(
    {"float16", "half", "bfloat16", "float32", "float", "float64", "double", "float8_e4m3fn", "float8_e5m2"}
)
CASTING_METHODS = frozenset({"half", "bfloat16", "float", "double"})


class ParamsMutatedAfterShard(Rule):
    """Parameters of a sharded module cast once it ran a forward, or replaced after `fully_shard`.

    ## What it does
    Reports a dtype cast of a sharded module (`model.to(torch.bfloat16)`, `.to(dtype=...)`,
    `.half()`, `.float()`, `.bfloat16()`, `.double()`, also of a module inside it or of a plain
    module that holds sharded ones: the cast reaches them) made after the module, one around it
    or one inside it ran a forward since `fully_shard`; and, at any point after `fully_shard`,
    `param.data = ...` on one of its parameters and a new `nn.Parameter` assigned to it
    (`m.weight = nn.Parameter(...)`, `setattr(m, name, nn.Parameter(...))`,
    `m.register_parameter(name, ...)`). A cast between `fully_shard` and the first forward is
    not reported, nor are `model.to(device)`, `model.to_empty(device=...)` and a tensor's cast (a
    parameter's or a buffer's `.float()` whose result is used as a value: a copy). Where the forward
    ran in a caller (a helper that casts, called after a training step), the finding is made in
    that call's context; where no caller in the tree is known, the rule stays silent.

    ## Why is this bad?
    `fully_shard` keeps its own sharded DTensor for each parameter it manages. Until the first
    forward, FSDP's lazy initialisation adopts the parameters as they are then, dtype included:
    on torch 2.13 a cast made there trains exactly as the same cast made before `fully_shard`.
    After the first forward the record is fixed: a dtype cast makes the next all-gather fail
    (`RuntimeError: Expected out tensor to have dtype c10::BFloat16, but got float instead`),
    or, with a `MixedPrecisionPolicy`, the gradient's reduce-scatter (`attempting to assign a
    gradient with dtype 'float' to a tensor with grad_dtype 'BFloat16'`). `param.data = ...` is
    silently lost before and after the first forward (training goes on with the old values), or,
    as a cast (`p.data = p.data.to(torch.bfloat16)`), makes the forward fail with mixed dtypes.
    A new `nn.Parameter` under a new name is never managed: it is not sharded and its gradient is
    never reduced, so the ranks' copies drift apart; one that replaces a managed parameter makes
    the lazy initialisation fail (`'Parameter' object has no attribute '_local_tensor'`), or,
    after the first forward, is silently overwritten by FSDP's own copy.

    ## Example
    ```python
    fully_shard(model)
    train_step(model, batch)
    model.to(torch.bfloat16)
    ```

    Use instead:
    ```python
    fully_shard(model)
    model.to(torch.bfloat16)            # cast before sharding, or before the first forward
    train_step(model, batch)
    # or keep fp32 master weights and compute in bf16:
    fully_shard(model, mp_policy=MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32))
    ```
    """

    code = "FSD204"
    name = "params-mutated-after-shard"
    severity = "error"
    message = "{what} after `fully_shard`{when} changes parameters that FSDP already manages on `{target}`"
    help = (
        "cast before the first forward (or before fully_shard), replace parameters before fully_shard; "
        "for compute precision use MixedPrecisionPolicy"
    )

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
        Valid(
            {
                "setup.py": """
                    import torch
                    from torch.distributed.fsdp import fully_shard

                    def setup(model, param_dtype):
                        for block in model.layers:
                            fully_shard(block)
                        fully_shard(model)
                        model.to(param_dtype)      # before the first forward: the lazy init adopts it
                        model.output.float()
                        return model
                    """,
                "train.py": """
                    import torch
                    from setup import setup

                    def main(loader):
                        model = setup(Transformer(), torch.bfloat16)
                        optimizer = torch.optim.AdamW(model.parameters())
                        for batch in loader:
                            model(batch).sum().backward()
                            optimizer.step()
                    """,
            }
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            def build(model, dtype, batch):
                for block in model.layers:
                    fully_shard(block)
                fully_shard(model)
                for name, param in model.named_parameters():
                    param.data = param.data.to(torch.float32)             # expect: FSD204
                model.scale = nn.Parameter(torch.ones(1))                  # expect: FSD204
                setattr(model.head, "bias", nn.Parameter(torch.zeros(8)))  # expect: FSD204
                model(batch).sum().backward()
                model.to(torch.bfloat16)                                   # expect: FSD204
                model.to("cuda", dtype=dtype)                              # expect: FSD204
                model.layers[0].half()                                     # expect: FSD204
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

                    def train_step(model, batch):
                        model(batch).sum().backward()

                    def to_bf16(model):
                        model.bfloat16()                                        # expect: FSD204

                    model = apply_fsdp(Transformer())
                    train_step(model, torch.ones(1))
                    to_bf16(model)
                    """,
            }
        ),
    ]

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        func = node.func
        if isinstance(func, nodes.Name) and func.name == "setattr" and len(node.args) == 3:
            owner = flow.sharded_object(node.args[0], must=True)
            if _is_parameter(node.args[2], flow) and owner is not None and not flow.reregistered_after(owner, flow.point()):
                self._report(flow, node, "a new `nn.Parameter` set with `setattr`", owner)
            return
        if not isinstance(func, nodes.Attribute) or not (func.attrname in CASTING_METHODS or func.attrname in ("to", "register_parameter")):
            return  # (asked of every call: the receiver's sharding only for the methods reported)
        cast = _cast(node, func.attrname, flow)
        if cast is not None:
            # a cast reaches every module inside its target: one that holds sharded modules casts them
            # (a tensor's `.to(dtype)`, a parameter's or a buffer's, returns a copy)
            receiver = next((o for o in flow.options(func.expr) if isinstance(o, Obj) and flow.may_hold_shards(o, must=True)
                             and flow.casts_in_place(node, o)), None)
            # until the first forward, FSDP's lazy initialisation adopts the cast parameters
            if receiver is not None and flow.ran_forward(receiver) is not None:
                self._report(flow, node, cast, receiver, " and a forward", named=func.expr)
        elif func.attrname == "register_parameter" and len(node.args) == 2 and _is_parameter(node.args[1], flow):
            receiver = flow.sharded_object(func.expr, must=True)
            if receiver is not None and not flow.reregistered_after(receiver, flow.point()):
                self._report(flow, node, "`register_parameter`", receiver)

    def on_function_end(self, flow: Flow) -> None:
        for assignment in flow.attr_assignments:
            owner = assignment.owner
            if assignment.attr == "data" and isinstance(owner, Params):
                if flow.sharded_here(owner.owner, before=Point(assignment.seq, assignment.path), must=True) is not None:
                    self._report(flow, assignment.node, "`param.data = ...`", owner.owner)
            elif isinstance(owner, Obj) and _is_parameter(assignment.value_node, flow):
                at = Point(assignment.seq, assignment.path)
                if flow.sharded_here(owner, before=at, must=True) is not None and not flow.reregistered_after(owner, at):
                    self._report(flow, assignment.node, f"assigning a new `nn.Parameter` to `.{assignment.attr}`", owner)

    def _report(self, flow: Flow, node: nodes.NodeNG, what: str, target: Obj, when: str = "", named: Optional[nodes.NodeNG] = None) -> None:
        """`named`: the receiver as the code names it, where that says more than the object's
        name (a component stored by `setattr` is named by the call that made it)."""
        name = named.as_string() if isinstance(named, (nodes.Name, nodes.Attribute)) else flow.shown(target)
        self.report(node, self.message.format(what=what, when=when, target=name), subject=target)


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
