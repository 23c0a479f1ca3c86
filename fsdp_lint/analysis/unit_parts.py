"""A sharded unit's own parts (its parameterised layers and `nn.Parameter`s, those no unit of their
own) and the code that runs them outside the unit's forward.

FSDP2 all-gathers a unit's parameters in the pre-forward hook of `unit(...)` and frees them again
in its post-forward hook; in between nothing keeps them gathered. Checked on torch 2.13 CPU, 2
gloo ranks (`benchmarks/realworld_repros/miss-root-unit-used-outside-its-forward/facts.py`): a
method other than `forward` of a non-root unit that runs its own layers (`encoder.forward_features(x)`),
and a layer of such a unit called on its own (`encoder.patch_embed(x)`), fail with "got mixed
torch.Tensor and DTensor" before the first forward, after a forward (training or `no_grad`) and
after the root's `unshard()`; they run with `register_fsdp_forward_method`, through a method that
calls only the unit's sub-units, and after the unit's own `unshard()` (with its gradients lost).
The root unit is not resharded after its forward: its parts run between its forward and the
backward, with the right gradients, so only units below another unit are asked about here; a
unit built with `reshard_after_forward` other than True keeps its parameters after a forward,
and is left out too.
"""

from __future__ import annotations

import weakref
from typing import Dict, FrozenSet, Iterator, Optional, Tuple

from astroid import nodes

from fsdp_lint.analysis.context import ShardEvent
from fsdp_lint.analysis.known_apis import REGISTER_FORWARD_METHOD, RESHARD_AFTER_FORWARD
from fsdp_lint.analysis.flags import self_path
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.node_listing import nodes_within
from fsdp_lint.analysis.paths import name_chain
from fsdp_lint.analysis.project import Project
from fsdp_lint.analysis.values import Obj, path_covers

_MAX_METHODS = 16  # methods of `self` followed from one method
_MEMOS: "weakref.WeakKeyDictionary[Project, Dict[object, FrozenSet[str]]]" = weakref.WeakKeyDictionary()


def _inner_unit_holding(flow: Flow, obj: Obj) -> Optional[ShardEvent]:
    """The innermost unit sharded before here that `obj` surely lies in (it, or a module that
    holds it), when that unit surely lies inside another unit (it is no root) and keeps its
    parameters sharded after a forward; None otherwise."""
    events = [e for e in flow.events_before() if not e.above and flow.contains(e.target, obj, must=True)]
    if not events:
        return None
    unit = max(events, key=lambda e: len(flow.canonical(e.target).attrs))
    below_another = any(
        not e.above and e is not unit and flow.contains(e.target, unit.target, strict=True, must=True) for e in flow.events_before()
    )
    return unit if below_another and _reshards_after_forward(unit) else None


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class OutsideForward:
    """A call that runs `part` of the sharded `unit` (a layer, or a method that runs its layers)
    without the unit's pre-forward all-gather."""

    __slots__ = ("unit", "part", "method")

    def __init__(self, unit: Obj, part: str, method: bool):
        self.unit = unit
        self.part = part
        self.method = method  # `part` is a method of the unit, not one of its layers


def runs_unit_outside_forward(flow: Flow, call: nodes.Call) -> Optional[OutsideForward]:
    """Whether `call` runs a non-root unit's own parts outside the unit's forward: one of its
    parameterised layers called on its own (`encoder.patch_embed(x)`), or a method of the unit
    other than `forward`, registered nowhere with `register_fsdp_forward_method`, that runs its
    own layers (`encoder.forward_features(x)`). Its own methods calling its parts (from its forward)
    are the unit's business: a call on `self` is not asked about."""
    if not isinstance(call.func, nodes.Attribute) or not flow.events or call.func.attrname == "forward":
        return None
    name = call.func.attrname
    for option in flow.options(call.func.expr):
        if not isinstance(option, Obj):
            continue
        holder = flow.canonical(option)
        if flow.self_root is not None and holder.root == flow.self_root and not holder.attrs:
            continue
        parts = _parts_called(flow, holder, name)
        if not parts or any(path_covers(u, holder) and path_covers(holder, u) for u in flow.unsharded):
            continue  # its own `unshard()` gathered them (the root's does not gather a unit below it)
        event = _inner_unit_holding(flow, holder)
        if event is None or (flow.canonical(event.target).root, flow.canonical(event.target).attrs) != (holder.root, holder.attrs):
            continue
        if any(not _is_unit(flow, holder.child(part)) for part in parts):
            return OutsideForward(holder, name, method=name not in parts)
    return None


def _parts_called(flow: Flow, holder: Obj, name: str) -> FrozenSet[str]:
    """The own parts of `holder`'s class that calling `holder.name` runs, by the class alone: the
    layer itself, or those its method runs (none for a method registered as a forward)."""
    cls = flow.class_name(holder)
    facts = flow.project.class_facts(cls)
    if name in facts.param_attrs:
        return frozenset() if name in facts.parameters else frozenset({name})
    if name in _registered_forward_methods(flow.project):
        return frozenset()
    method = flow.project.resolve_method(Obj(holder.root, holder.attrs, cls), None, name)
    return _parts_run_by(flow.project, cls, method) if isinstance(method, nodes.FunctionDef) else frozenset()


def _is_unit(flow: Flow, obj: Obj) -> bool:
    """Whether `obj` may itself be a unit (sharded on a run to here): its own hooks run when it is called."""
    return any(not e.above and flow.contains(obj, e.target) and flow.contains(e.target, obj) for e in flow.events_before())


def _parts_run_by(project: Project, cls: Optional[str], method: nodes.FunctionDef) -> FrozenSet[str]:
    """The attributes of `self` among its class's own parts that `method` runs, itself or through
    the methods of `self` it calls (`forward` among them): a parameterised layer called
    (`self.patch_embed(x)`), a parameter in arithmetic with another value (`h + self.pos_embed`:
    a DTensor with a plain tensor fails, while `nn.init.normal_(self.pos_embed)` or
    `self.pos_embed.shape` runs on a DTensor). What runs through `self(...)` goes through the hooks."""
    memo = _MEMOS.setdefault(project, {})
    key = (cls, id(method))
    if key not in memo:
        facts = project.class_facts(cls)
        found = set()
        receiver = Obj(("", "self", 0), cls=cls)
        pending, seen = [method], set()
        while pending and len(seen) < _MAX_METHODS:
            current = pending.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            for attr, node in _self_uses(current):
                called = isinstance(node.parent, nodes.Call) and node.parent.func is node
                if attr in facts.parameters:
                    if _in_arithmetic(node):
                        found.add(attr)
                elif attr in facts.param_attrs:
                    if called:
                        found.add(attr)
                elif called:
                    callee = project.resolve_method(receiver, None, attr)
                    if isinstance(callee, nodes.FunctionDef):
                        pending.append(callee)
        memo[key] = frozenset(found)
    return memo[key]


def _registered_forward_methods(project: Project) -> FrozenSet[str]:
    """The method names the tree's code registers with `register_fsdp_forward_method` (any
    module: which object a registration is for is not followed, so a name registered anywhere
    counts as registered everywhere)."""
    memo = _MEMOS.setdefault(project, {})
    if REGISTER_FORWARD_METHOD not in memo:
        names = set()
        for module in project.modules.values():
            for call in nodes_within(module, nodes.Call):
                chain = name_chain(call.func)
                if chain and chain[-1] == REGISTER_FORWARD_METHOD and len(call.args) > 1 and isinstance(call.args[1], nodes.Const):
                    names.add(call.args[1].value)
        memo[REGISTER_FORWARD_METHOD] = frozenset(n for n in names if isinstance(n, str))
    return memo[REGISTER_FORWARD_METHOD]


def _self_uses(method: nodes.FunctionDef) -> Iterator[Tuple[str, nodes.Attribute]]:
    """`(a, node)` for every `self.a` a method reads as a value (`self.a.shape`, an attribute of
    it, is not a read of `a` as a value)."""
    for node in nodes_within(method, nodes.Attribute):
        if isinstance(node.parent, nodes.Attribute) and node.parent.expr is node:
            continue
        path = self_path(node)
        if path is not None and len(path) == 1:
            yield path[0], node


def _in_arithmetic(node: nodes.NodeNG) -> bool:
    """Whether `node` is an operand of a binary operation with a value that is no constant."""
    parent = node.parent
    if not isinstance(parent, nodes.BinOp):
        return False
    other = parent.right if parent.left is node else parent.left
    return not isinstance(other, nodes.Const)


def _reshards_after_forward(event: ShardEvent) -> bool:
    """Whether the `fully_shard` call of `event` leaves `reshard_after_forward` at its default
    (True) or sets it to True: False (or a number of ranks) keeps the gathered parameters."""
    call = event.node
    if not isinstance(call, nodes.Call):
        return True
    for keyword in call.keywords or []:
        if keyword.arg == RESHARD_AFTER_FORWARD:
            return isinstance(keyword.value, nodes.Const) and keyword.value.value is True
    return True
