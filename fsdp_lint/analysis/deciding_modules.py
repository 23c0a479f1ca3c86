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

from fsdp_lint.analysis.paths import none_test
from fsdp_lint.analysis.values import Deferred, Obj, options_of

if TYPE_CHECKING:
    from fsdp_lint.analysis.flow import Flow


def modules_deciding(flow: "Flow", test: nodes.NodeNG) -> Set[str]:
    """The modules not entered that could decide the branch test `test` of `flow`: those of the
    classes its `isinstance` calls test against, and those of the deferred calls whose results
    it asks the class of or tests for None. What code constructs decides these; a result's truth
    value or the value of one of its attributes (`is_bf16_available()`, `state.distributed_type
    == DistributedType.XLA`) is mostly the environment's, which entering the code does not
    settle."""
    project = flow.project
    found: Set[str] = set()
    for node in _subexpressions(test):
        if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Name) and node.func.name == "isinstance" and len(node.args) == 2:
            subject, tested = node.args
            for cls in tested.elts if isinstance(tested, nodes.Tuple) else [tested]:
                target = project.callable_for_flow(flow.qualified_name(cls))
                if isinstance(target, Deferred):
                    found.add(target.module)
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
