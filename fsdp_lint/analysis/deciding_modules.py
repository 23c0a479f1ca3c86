"""Which modules the flows do not enter could decide a branch that holds shards.

A framework often picks FSDP1 or FSDP2 by the class of a configuration object
(`isinstance(self.fsdp_config, FSDPConfig)`) that a module of plain dataclasses defines. That
module holds nothing sharded, so the demand for modules by what deferred calls receive and return
(`Project.demanded_modules`) never enters it: the configuration is a deferred result of unknown
class, the test stays undecided, and both arms run, the one that shards included. A walk that
leaves such a test undecided, on the path to one of its shard events, names the modules that
could settle it: those of the tree's classes the test's `isinstance` calls name, and those of the
deferred calls whose results it reads. Entering them costs a round only where a branch holding
shards depends on them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Set

from astroid import nodes

from fsdp_lint.analysis.values import Deferred, Obj, options_of

if TYPE_CHECKING:
    from fsdp_lint.analysis.flow import Flow


def modules_deciding(flow: "Flow", test: nodes.NodeNG) -> Set[str]:
    """The modules not entered that the branch test `test` of `flow` reads: a class it tests
    objects against, or the code that made an object it reads (a deferred call's result)."""
    project = flow.project
    found: Set[str] = set()
    for node in _subexpressions(test):
        if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Name) and node.func.name == "isinstance" and len(node.args) == 2:
            tested = node.args[1]
            for cls in tested.elts if isinstance(tested, nodes.Tuple) else [tested]:
                target = project.callable_for_flow(flow.qualified_name(cls))
                if isinstance(target, Deferred):
                    found.add(target.module)
        value = flow.values.get(node)
        for option in options_of(value) if value is not None else ():
            if isinstance(option, Obj):
                origin = project.origin(option.root)
                if origin is not None:
                    found.add(origin)
    return found


def _subexpressions(test: nodes.NodeNG) -> Iterator[nodes.NodeNG]:
    """The test and the expressions inside it (no lambdas or comprehensions: a test is small)."""
    pending = [test]
    while pending:
        node = pending.pop()
        yield node
        pending.extend(node.get_children())
