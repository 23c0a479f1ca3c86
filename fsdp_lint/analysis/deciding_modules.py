"""Which modules the flows do not enter could decide a branch that holds shards.

A framework often picks FSDP1 or FSDP2 by the class of a configuration object
(`isinstance(self.fsdp_config, FSDPConfig)`) that a module of plain dataclasses defines. That
module holds nothing sharded, so the demand for modules by what deferred calls receive and return
(`Project.demanded_modules`) never enters it: the configuration is a deferred result of unknown
class, the test stays undecided, and both arms run, the one that shards included. A walk that
leaves such a test undecided, on the path to one of its shard events, names the modules that
could settle it. Entering them costs a round only where a branch holding shards depends on them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Set

from astroid import nodes

from fsdp_lint.analysis.module_globals import declared_global
from fsdp_lint.analysis.paths import none_test
from fsdp_lint.analysis.values import Deferred, Obj, options_of

if TYPE_CHECKING:
    from fsdp_lint.analysis.flow import Flow


def modules_deciding(flow: "Flow", test: nodes.NodeNG) -> Set[str]:
    """The modules not entered that could decide the branch test `test` of `flow`: those of the
    classes its `isinstance` calls test against, and those of the deferred calls whose results
    it asks the class of or tests for None, or whose result itself it tests where the function
    reads a global that a function of its module rebinds (`if fsdp2_enabled():` over
    `get_args().fsdp_version == "fsdp2"`, the arguments `set_args(args)` stored:
    `Flow._rebind_global`). What code constructs decides the first; the second is a flag of an
    object the tree holds. Another result's truth value or the value of one of its attributes
    (`is_bf16_available()`, `state.distributed_type == DistributedType.XLA`) is mostly the
    environment's, which entering the code does not settle."""
    project = flow.project
    found: Set[str] = set()
    for node in _subexpressions(test):
        if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Name) and node.func.name == "isinstance" and len(node.args) == 2:
            subject, tested = node.args
            for cls in tested.elts if isinstance(tested, nodes.Tuple) else [tested]:
                target = project.callable_for_flow(flow.qualified_name(cls))
                if isinstance(target, Deferred):
                    found.add(target.module)
        elif isinstance(node, nodes.Call) and _tested_whole(node, test) and _reads_rebound_global(flow, node):
            subject = node
        else:
            none = none_test(node)
            if none is None:
                continue
            subject = none[0]
        value = flow.values.get(subject)
        for option in options_of(value) if value is not None else ():
            origin = flow.deferred_module(option, within=True) if isinstance(option, Obj) else None
            if origin is not None:
                found.add(origin)
    return found


def _subexpressions(test: nodes.NodeNG) -> Iterator[nodes.NodeNG]:
    """The test and the expressions inside it."""
    pending = [test]
    while pending:
        node = pending.pop()
        yield node
        pending.extend(node.get_children())


def _tested_whole(call: nodes.Call, test: nodes.NodeNG) -> bool:
    """Whether `test` reads the result of `call` itself: its truth (`not`, `and`, `or` of it) or
    its comparison with another value."""
    node = call
    while node is not test:
        parent = node.parent
        if not (isinstance(parent, (nodes.BoolOp, nodes.Compare)) or isinstance(parent, nodes.UnaryOp) and parent.op == "not"):
            return False
        node = parent
    return True


def _reads_rebound_global(flow: "Flow", call: nodes.Call) -> bool:
    """Whether the function of a module not entered that `call` names reads (itself, or through
    the functions of its module it calls) a global that a function of that module rebinds:
    its result may be what the tree stored there. Parses that module."""
    target = flow.project.callable_for_flow(flow.qualified_name(call.func))
    if not isinstance(target, Deferred):
        return False
    module = flow.project.module(target.module)
    name = (flow.qualified_name(call.func) or "").rpartition(".")[2]
    bound = module.locals.get(name, ()) if module is not None else ()
    func = bound[-1] if bound else None
    if not isinstance(func, nodes.FunctionDef):
        return False
    return any(
        isinstance(binding, nodes.AssignName) and declared_global(binding)
        for read in flow.project.globals_read(func) for binding in module.locals.get(read, ())  # type: ignore[union-attr]
    )
