"""Which calls communicate with every rank of the process group, and where a walk issues one.

A collective that only some ranks enter hangs the job (FSD206). The call may be the collective
itself (`dcp.save`, `t.full_tensor()`) or a call of a function of the tree that issues one on
every run that does its work (`save_checkpoint(model)` whose body calls `dcp.save`;
`evaluate(model, loader)` whose loop's passes get on to the forward past `if i >= limit: break`,
where a run no pass gets past evaluated nothing): its summary carries the collectives
(`Summary.collectives`), so the caller knows what its call does and where only some ranks make
it, as it knows an optimizer a helper built. One the function issues on some runs only (under `if
isinstance(x, DTensor):` with other work on the other arm, `if local_rank == -1:`, its own `if
rank == 0:`) depends on what the test there reads, which the caller's facts seldom settle: it is
not handed on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Optional

from astroid import nodes

from fsdp_lint.analysis import known_apis
from fsdp_lint.analysis.values import Gathered, Obj, Params, options_of

if TYPE_CHECKING:
    from fsdp_lint.analysis.conditions import RankBranch
    from fsdp_lint.analysis.flow import Flow

CLIP_GRAD_NORM = frozenset({"torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad.clip_grad_norm_", "torch.nn.utils.get_total_norm"})
# The functions `collective` recognises by their qualified names (with `.full_tensor()` and
# `CLIP_GRAD_NORM`): what a screen looks for before anything is parsed.
COLLECTIVE_FUNCTIONS = known_apis.DCP_COLLECTIVES | known_apis.STATE_DICT_GETTERS | known_apis.STATE_DICT_SETTERS


class Collective(NamedTuple):
    """A collective a walk issues: at `node`, its own call or the call of a function of the tree
    that issues it (`at`, the collective's call there), with the innermost test around `node` (or
    decorator) that only some ranks pass, and whether every run of the walk that does its work
    issues it (no rank test, no branch outcome on the way but those by which a loop's pass gets on
    to its work: `Flow._issued`): what its summary hands on."""

    node: nodes.NodeNG
    what: str
    at: nodes.Call
    rank_test: Optional["RankBranch"]
    every_run: bool


def collective(node: nodes.Call, flow: "Flow") -> Optional[str]:
    """A description of the collective that `node` itself runs, or None: DCP's save and load
    (not with `no_dist=True` or their own `process_group=`), the state-dict functions with a full
    state dict of a module that may hold shards, `.full_tensor()` (but of a tensor of a full
    state dict), `clip_grad_norm_` over the DTensor gradients of a sharded model, and the forward
    of a module that `fully_shard` made an `FSDPModule` on every run to the call."""
    func = node.func
    if isinstance(func, nodes.Attribute) and func.attrname == "full_tensor" and not node.args:
        if all(isinstance(t, Gathered) for t in options_of(flow.value(func.expr))):
            return None  # a tensor of a full state dict is a plain one: nothing to gather
        return "`.full_tensor()`"
    qname = flow.qualified_name(func)
    dcp = known_apis.dcp_function(qname)
    if dcp is not None:
        if any(k.arg in ("no_dist", "process_group") for k in node.keywords or []):
            return None
        return f"`dcp.{dcp}`"
    state = known_apis.state_dict_function(qname)
    if state is not None:
        if flow.full_state_dict(node) is not True:
            return None
        module = flow.value(node.args[0]) if node.args else None
        if isinstance(module, Obj) and flow.provably_unsharded(module):
            return None  # gathering a plain module's tensors needs no communication
        return f"`{state}` with a full state dict"
    if qname in CLIP_GRAD_NORM and node.args:
        params = flow.value(node.args[0])
        if isinstance(params, Params) and flow.may_hold_shards(params.owner):
            return f"`clip_grad_norm_` over the DTensor gradients of `{flow.shown(params.owner)}`"
    called = [o for o in options_of(flow.value(func)) if isinstance(o, Obj)]
    if called and all(flow.is_fsdp_module(o, node) is True for o in called):
        # FSDP2's pre-forward hook all-gathers the unit's parameters (checked on torch 2.13, 2 gloo
        # ranks: `if rank == 0: model(x)` of a `fully_shard`-ed module hangs the next collective)
        return f"the forward of the sharded `{flow.shown(called[0])}`"
    return None
