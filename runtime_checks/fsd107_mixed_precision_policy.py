"""Runtime check FSD107: mixed-precision and offload policies that FSDP2 ignores or that cannot compose."""

from typing import Any, Optional, Sequence

import torch
import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


def _stored_dtype(group: Any) -> Optional[torch.dtype]:
    """The dtype the unit's floating parameters are stored in (None: no floating parameter)."""
    for fsdp_param in torch_shims.group_fsdp_params(group):
        dtype = torch_shims.sharded_param(fsdp_param).dtype
        if dtype.is_floating_point:
            return dtype
    return None


def _name(dtype: Optional[torch.dtype]) -> str:
    return str(dtype).replace("torch.", "")


class _Unit:
    """One unit's compute side: the dtype it computes in and what it does to its inputs and output."""

    def __init__(self, state: Any) -> None:
        self.module = torch_shims.state_modules(state)[0]
        groups = torch_shims.param_groups(state)
        self.policy = torch_shims.group_policies(groups[0])[0] if groups else None
        stored = next((d for d in map(_stored_dtype, groups) if d is not None), None)
        self.param_dtype = getattr(self.policy, "param_dtype", None)
        self.compute = self.param_dtype or stored
        self.casts_inputs = self.param_dtype is not None and getattr(self.policy, "cast_forward_inputs", True)
        self.output = getattr(self.policy, "output_dtype", None) or self.compute

    def policy_text(self) -> str:
        if self.param_dtype is None:
            return "no mixed-precision policy"
        return f"MixedPrecisionPolicy(param_dtype={_name(self.param_dtype)})"


class MixedPrecisionPolicyCheck(RuntimeCheck):
    """Mixed-precision or offload policies that FSDP2 ignores, or that the model's units cannot compose.

    ## What it does
    At each ``fully_shard``: FSDP1's ``MixedPrecision`` or ``CPUOffload`` passed as
    ``mp_policy``/``offload_policy`` (FSDP2 accepts them without complaint), and a
    ``reduce_dtype`` narrower than the dtype gradients are computed in (a warning: it may be a
    deliberate bandwidth trade). At the root's first forward: units that compute in another
    dtype than the root and neither cast their inputs nor their output back (typically the
    root sharded without the policy its blocks have).

    ## Why it matters
    FSDP1's ``MixedPrecision`` fails at the first matmul ("mat1 and mat2 must have the same
    dtype") and ``CPUOffload`` silently keeps the parameters on the accelerator. Units with
    conflicting ``param_dtype`` hand each other activations of the wrong dtype and fail with
    the same ``mat1 and mat2`` error, far from the ``fully_shard`` call that caused it. A
    low-precision ``reduce_dtype`` sums gradients across ranks in that precision.

    ## When
    At the ``fully_shard`` call, and once at the first forward of each root, before any
    all-gather.
    """

    code = "FSD107"
    name = "mixed-precision-policy"

    def on_sharded(self, group: Any, params: Sequence[nn.Parameter]) -> None:
        mp_policy, offload_policy = torch_shims.group_policies(group)
        where = ", ".join(naming.class_name(m) for m in torch_shims.group_modules(group))
        if not isinstance(mp_policy, torch_shims.get("MixedPrecisionPolicy")):
            self.report(
                f"fully_shard({where}) was given mp_policy={type(mp_policy).__name__}(...), which is not an "
                "FSDP2 policy: fully_shard ignores its casting rules and the first matmul fails with "
                "'mat1 and mat2 must have the same dtype'.",
                "pass `torch.distributed.fsdp.MixedPrecisionPolicy(param_dtype=..., reduce_dtype=...)` "
                "(FSDP1's `MixedPrecision` is for FullyShardedDataParallel only).",
                key="fsdp1-mixed-precision",
                rank_local=False,
            )
            return
        if not isinstance(offload_policy, torch_shims.get("OffloadPolicy")):
            self.report(
                f"fully_shard({where}) was given offload_policy={type(offload_policy).__name__}(...), which "
                "is not an FSDP2 policy: fully_shard silently does not offload anything.",
                "pass `torch.distributed.fsdp.CPUOffloadPolicy()` (FSDP1's `CPUOffload` is for "
                "FullyShardedDataParallel only).",
                key="fsdp1-cpu-offload",
                rank_local=False,
            )
        computed = mp_policy.param_dtype or _stored_dtype(group)
        reduce_dtype = mp_policy.reduce_dtype
        if computed is not None and reduce_dtype is not None and reduce_dtype.itemsize < computed.itemsize:
            self.report(
                f"fully_shard({where}) reduces gradients in {_name(reduce_dtype)} although they are computed "
                f"in {_name(computed)}: the cross-rank sum loses precision.",
                f"use `reduce_dtype=torch.float32` (or at least {_name(computed)}), or drop reduce_dtype.",
                key=f"reduce:{reduce_dtype}<{computed}",
                rank_local=False,
                severity="warning",
            )

    def on_root_init(self, root: nn.Module, states: Sequence[Any]) -> None:
        policy_cls = torch_shims.get("MixedPrecisionPolicy")
        units = [_Unit(state) for state in states]
        if any(not isinstance(unit.policy, policy_cls) for unit in units if unit.policy is not None):
            return  # already reported at fully_shard
        outer = next((unit for unit in units if unit.module is root), None)
        if outer is None or outer.compute is None:
            return
        root_dtype = _name(outer.compute)
        for unit in units:
            if unit is outer or unit.compute is None or unit.compute == outer.compute:
                continue
            if not unit.casts_inputs:
                problem = f"receives {root_dtype} activations from the root but computes in {_name(unit.compute)}"
            elif unit.output != outer.compute:
                problem = f"returns {_name(unit.output)} activations to the root, which computes in {root_dtype}"
            else:
                continue
            self.report(
                f"{naming.describe(unit.module)} has {unit.policy_text()} while the root ({naming.class_name(root)}) "
                f"has {outer.policy_text()}: it {problem}, so the forward fails with 'mat1 and mat2 must "
                "have the same dtype'.",
                "pass the same `mp_policy=MixedPrecisionPolicy(...)` to every fully_shard call of the model, "
                "the root's `fully_shard(model, mp_policy=...)` included (or set `output_dtype` on the "
                "units that deliberately compute in another dtype).",
                key=naming.module_path(unit.module),
                rank_local=False,
            )
            return
