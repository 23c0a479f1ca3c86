from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

from astroid import nodes

from fsdp_lint.analysis.call_arguments import call_argument
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.names import binding_of
from fsdp_lint.analysis.values import Obj, objects_in
from fsdp_lint.engine.rule import Invalid, Rule, Valid

FSDP1_CONFIGS = {
    "MixedPrecision": ("mp_policy", "MixedPrecisionPolicy(param_dtype=..., reduce_dtype=...)"),
    "CPUOffload": ("offload_policy", "CPUOffloadPolicy()"),
}
FSDP1_MODULES = ("torch.distributed.fsdp", "torch.distributed.fsdp.fully_sharded_data_parallel", "torch.distributed.fsdp.api")
POLICY_CLASSES = frozenset({"torch.distributed.fsdp.MixedPrecisionPolicy", "torch.distributed.fsdp._fully_shard._fsdp_api.MixedPrecisionPolicy", "torch.distributed._composable.fsdp.MixedPrecisionPolicy"})
DTYPE_BITS = {"float64": 64, "double": 64, "float32": 32, "float": 32, "bfloat16": 16, "float16": 16, "half": 16}
CANONICAL = {"double": "float64", "float": "float32", "half": "float16"}
UNKNOWN_POLICY = "unknown"


@dataclass
class _Unit:
    node: nodes.Call
    targets: List[Obj]
    param_dtype: Optional[str]  # None: no policy; UNKNOWN_POLICY: not visible


class MixedPrecisionPolicyMistake(Rule):
    """Mixed-precision settings that `fully_shard` ignores, contradicts or applies only in part.

    ## What it does
    Reports: FSDP1's `MixedPrecision` or `CPUOffload` passed to `fully_shard` (which takes
    `MixedPrecisionPolicy` / `CPUOffloadPolicy`); a `MixedPrecisionPolicy` whose `reduce_dtype` is
    lower than its `param_dtype`; units of one model given different low-precision `param_dtype`s
    (bf16 in one, fp16 in another); and the root sharded without the policy that its blocks got.

    ## Why is this bad?
    FSDP2 does not inherit policies: each `fully_shard` call uses only its own. A root sharded
    without `mp_policy` computes embeddings and the output head in fp32 while its blocks run in
    bf16 (more memory, slower, and not what was asked). Reducing gradients in a lower precision
    than the parameters loses gradient bits silently. FSDP1's config classes are different types
    with different fields and fail or are misread.

    ## Example
    ```python
    mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.layers:
        fully_shard(block, mp_policy=mp)
    fully_shard(model)
    ```

    Use instead:
    ```python
    for block in model.layers:
        fully_shard(block, mp_policy=mp)
    fully_shard(model, mp_policy=mp)
    ```
    """

    code = "FSD107"
    name = "mixed-precision-policy"
    severity = "error"
    message = "{problem}"
    help = "{fix}"

    VALID = [
        Valid(
            """
            import torch
            from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

            mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
            for block in model.layers:
                fully_shard(block, mp_policy=mp)
            fully_shard(model.norm, mp_policy=MixedPrecisionPolicy(param_dtype=torch.float32))
            fully_shard(model, mp_policy=mp)

            kwargs = {"mp_policy": mp}
            for block in other.layers:
                fully_shard(block, **kwargs)
            fully_shard(other, **kwargs)
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.distributed.fsdp import CPUOffload, MixedPrecision, MixedPrecisionPolicy, fully_shard

            def shard(model):
                mp = MixedPrecisionPolicy(param_dtype=torch.float32, reduce_dtype=torch.bfloat16)   # expect: FSD107
                fp16 = MixedPrecisionPolicy(param_dtype=torch.float16)
                bf16 = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
                fully_shard(model.encoder, mp_policy=MixedPrecision(param_dtype=torch.bfloat16))     # expect: FSD107
                fully_shard(model.decoder, offload_policy=CPUOffload(offload_params=True))         # expect: FSD107
                for block in model.layers:
                    fully_shard(block, mp_policy=bf16)
                fully_shard(model.head, mp_policy=fp16)                                            # expect: FSD107
                fully_shard(model)                                                                 # expect: FSD107
            """
        ),
        Invalid(
            {
                "policies.py": """
                    import torch
                    from torch.distributed.fsdp import MixedPrecisionPolicy

                    BF16 = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
                    """,
                "parallel.py": """
                    from torch.distributed.fsdp import fully_shard
                    from policies import BF16

                    def apply_fsdp(model):
                        for block in model.blocks:
                            fully_shard(block, mp_policy=BF16)
                        fully_shard(model, reshard_after_forward=False)                   # expect: FSD107
                    """,
            }
        ),
    ]

    def __init__(self, reporter):
        super().__init__(reporter)
        self._units: List[_Unit] = []

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        qname = flow.qualified_name(node.func)
        if qname in POLICY_CLASSES:
            self._check_policy(node, flow)
            return
        module = flow.sharded_module(node)
        if module is None:
            return
        for keyword, (expected, replacement) in _fsdp1_configs(node, flow):
            self.report(
                node,
                f"`{keyword}` is FSDP1's config class; `fully_shard` takes `{expected}={replacement.split('(')[0]}`",
                help=f"pass `{expected}={replacement}`",
            )
        self._units.append(_Unit(node, list(objects_in(flow.value(module))), _param_dtype(node, flow)))

    def on_function_end(self, flow: Flow) -> None:
        units, self._units = self._units, []
        for unit in units:
            for target in unit.targets:
                below = [u for u in units if u is not unit and any(_inside(t, target) for t in u.targets)]
                low = [u for u in below if u.param_dtype in ("bfloat16", "float16")]
                if not target.attrs and unit.param_dtype is None and low:
                    self.report(
                        unit.node,
                        f"the root `{flow.shown(target)}` is sharded without the `mp_policy` its blocks got (line {low[0].node.lineno}): "
                        f"its own parameters (embeddings, head) compute in fp32",
                        help="pass the same `mp_policy=` to the root's fully_shard call",
                    )
        seen: Optional[_Unit] = None
        for unit in units:
            if unit.param_dtype not in ("bfloat16", "float16"):
                continue
            if seen is not None and seen.param_dtype != unit.param_dtype and _same_model(seen, unit):
                self.report(
                    unit.node,
                    f"this unit computes in {unit.param_dtype} but another unit of the same model (line {seen.node.lineno}) in {seen.param_dtype}",
                    help="use one MixedPrecisionPolicy for every unit of a model",
                )
            seen = seen or unit

    def _check_policy(self, node: nodes.Call, flow: Flow) -> None:
        param = _dtype(call_argument(node, 0, "param_dtype"))
        reduce = _dtype(call_argument(node, 1, "reduce_dtype"))
        if param and reduce and DTYPE_BITS[reduce] < DTYPE_BITS[param]:
            self.report(
                node,
                f"`reduce_dtype={reduce}` is lower than `param_dtype={param}`: gradients are reduced with fewer bits than the parameters hold",
                help="use a reduce_dtype at least as wide as param_dtype (usually torch.float32)",
            )


def _fsdp1_configs(node: nodes.Call, flow: Flow):
    for keyword in node.keywords or []:
        value = _resolve(keyword.value)
        if isinstance(value, nodes.Call):
            module, _, name = (flow.qualified_name(value.func) or "").rpartition(".")
            if name in FSDP1_CONFIGS and module in FSDP1_MODULES:
                yield name, FSDP1_CONFIGS[name]


def _param_dtype(node: nodes.Call, flow: Flow) -> Optional[str]:
    """The unit's compute dtype: None without a policy, UNKNOWN_POLICY when it cannot be seen."""
    if any(k.arg is None for k in node.keywords or []) or len(node.args) > 2:
        return UNKNOWN_POLICY
    policy = next((k.value for k in node.keywords or [] if k.arg == "mp_policy"), None)
    if policy is None:
        return None
    policy = _resolve(policy, flow)
    if not isinstance(policy, nodes.Call) or flow.qualified_name(policy.func) not in POLICY_CLASSES:
        return UNKNOWN_POLICY
    return _dtype(call_argument(policy, 0, "param_dtype")) or UNKNOWN_POLICY


def _resolve(expr: nodes.NodeNG, flow: Optional[Flow] = None) -> nodes.NodeNG:
    """A name bound once by a plain assignment (here, at module level, or imported from the tree)."""
    if isinstance(expr, nodes.Name):
        binding = binding_of(expr, expr.name)
        if isinstance(binding, nodes.AssignName) and isinstance(binding.parent, nodes.Assign):
            return binding.parent.value
        if isinstance(binding, nodes.ImportFrom) and flow is not None:
            return flow.project.imported.value(flow.qualified_name(expr)) or expr
    return expr


def _dtype(expr: Optional[nodes.NodeNG]) -> Optional[str]:
    if isinstance(expr, nodes.Attribute) and expr.attrname in DTYPE_BITS and expr.expr.as_string() == "torch":
        return CANONICAL.get(expr.attrname, expr.attrname)
    return None


def _inside(inner: Obj, outer: Obj) -> bool:
    return inner.root == outer.root and len(inner.attrs) > len(outer.attrs) and inner.attrs[: len(outer.attrs)] == outer.attrs


def _same_model(a: _Unit, b: _Unit) -> bool:
    return any(x.root == y.root for x in a.targets for y in b.targets)
