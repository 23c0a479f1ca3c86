"""What the syntax of a function says about its runs, before any value is known: which statements
end a block, which parts of a statement may be skipped, how a function's parameters and
decorators read. Pure questions about astroid nodes, asked by the walker (`analysis.flow`) and
the project (`analysis.project`).
"""

from __future__ import annotations

import functools
from typing import FrozenSet, List, Optional, Tuple, Union

from astroid import nodes

from fsdp_lint.analysis import paths
from fsdp_lint.analysis.node_listing import nodes_within

# Statements and expressions that may run a part of themselves no time or stop in it, and the
# parts that always run.
_MAY_SKIP = (nodes.For, nodes.AsyncFor, nodes.While, nodes.Try, nodes.TryStar, nodes.Match, nodes.ListComp, nodes.SetComp, nodes.DictComp, nodes.GeneratorExp)
_ALWAYS_RUN = frozenset({"iter", "test", "subject", "finalbody"})
TRY_NODES = (nodes.Try, nodes.TryStar)


def returns(body: List[nodes.NodeNG]) -> bool:
    """The block ends by leaving normally (a raise ends the process, not just the block)."""
    return bool(body) and isinstance(body[-1], (nodes.Return, nodes.Continue, nodes.Break))


def leaves(body: List[nodes.NodeNG]) -> bool:
    """The block never falls through to the statement after it."""
    return bool(body) and isinstance(body[-1], (nodes.Return, nodes.Continue, nodes.Break, nodes.Raise))


def returns_or_raises(body: List[nodes.NodeNG]) -> bool:
    """The block ends by leaving the function."""
    return bool(body) and isinstance(body[-1], (nodes.Return, nodes.Raise))


def runs_whenever(node: nodes.NodeNG, at: nodes.NodeNG, scope: nodes.NodeNG) -> bool:
    """Whether `node` (of `scope`) runs on every run that gets past it to `at`, as far as the
    statements that may skip part of themselves go (a loop's body may run no time, a `try`'s body
    stop at an exception, a `case` not match): `node` in none of those parts, or `at` in the same
    one. Branches of `if`s, and-or and if-expressions are not looked at: paths tell those apart."""
    child, parent = node, node.parent
    while parent is not None and child is not scope:
        if isinstance(parent, _MAY_SKIP):
            part = part_of(parent, child)
            if part not in _ALWAYS_RUN:
                inside = at
                while inside is not None and inside.parent is not parent:
                    inside = inside.parent
                if inside is None or part_of(parent, inside) != part:
                    return False
        child, parent = parent, parent.parent
    return child is scope


def part_of(parent: nodes.NodeNG, child: nodes.NodeNG) -> object:
    """The part of `parent` that holds `child`: a field's name, or the handler or case itself."""
    for name in parent._astroid_fields:
        value = getattr(parent, name)
        if value is child:
            return name
        if isinstance(value, list) and any(item is child for item in value):
            return child if name in ("handlers", "cases", "generators") else name
    return None


def assigns(call: nodes.Call) -> bool:
    """`load_state_dict(..., assign=...)` with anything but a literal False: the parameters are replaced."""
    assign = next((kw.value for kw in call.keywords or [] if kw.arg == "assign"), None)
    return assign is not None and not (isinstance(assign, nodes.Const) and assign.value is False)


def breaks(loop: Union[nodes.For, nodes.AsyncFor]) -> bool:
    """Whether a `break` of `loop` (not of a loop inside it, nor in its `else`) may end it."""
    pending = list(loop.body)
    while pending:
        node = pending.pop()
        if isinstance(node, nodes.Break):
            return True
        if isinstance(node, (nodes.For, nodes.AsyncFor, nodes.While)):
            pending.extend(node.orelse)  # a nested loop's `else` breaks this one
        elif not isinstance(node, (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)):
            pending.extend(node.get_children())
    return False


@functools.lru_cache(maxsize=1 << 12)
def loop_bound(loop: Union[nodes.For, nodes.AsyncFor, nodes.While]) -> FrozenSet[str]:
    """The names and attribute chains a loop may bind anew on each pass (its target's, those its
    body assigns, not a nested function's): what a test in its body that reads them may decide
    differently on each pass."""
    found = set()
    for part in ([loop.target] if isinstance(loop, (nodes.For, nodes.AsyncFor)) else []) + list(loop.body):
        for node in part.nodes_of_class((nodes.AssignName, nodes.AssignAttr), skip_klass=(nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)):
            chain = node.name if isinstance(node, nodes.AssignName) else paths.attribute_chain(node)
            if chain is not None:
                found.add(chain)
    return frozenset(found)


# Builtins whose iteration gives a loop's target a new integer on each pass: `range`'s items, and
# the index `enumerate` pairs each item with.
_COUNTING_ITERATORS = frozenset({"range", "enumerate"})


def pass_counter(loop: Union[nodes.For, nodes.AsyncFor]) -> Optional[Tuple[nodes.Name, str]]:
    """The iterator a loop counts its passes with (its name, which the caller tells is the
    builtin's or not) and the name it binds the count to (`for i in range(n)`, `for i, block in
    enumerate(blocks)`), where its body never binds that name again: `items[i]` is then another
    item on each pass."""
    iterated = loop.iter
    if not (isinstance(iterated, nodes.Call) and isinstance(iterated.func, nodes.Name) and iterated.func.name in _COUNTING_ITERATORS):
        return None
    target = loop.target
    if iterated.func.name == "enumerate":
        target = target.elts[0] if isinstance(target, nodes.Tuple) and target.elts else None
    if not isinstance(target, nodes.AssignName):
        return None
    for statement in loop.body:
        for node in statement.nodes_of_class(nodes.AssignName, skip_klass=(nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)):
            if node.name == target.name:
                return None
    return iterated.func, target.name


def ends_pass(statement: nodes.NodeNG) -> bool:
    """Whether a statement is the last of a loop's body: a pass ends after it."""
    parent = statement.parent
    return isinstance(parent, (nodes.For, nodes.AsyncFor, nodes.While)) and bool(parent.body) and parent.body[-1] is statement


def exits_inside_loops(scope: nodes.NodeNG) -> bool:
    """Whether a `return` of `scope` (not of a function inside it) lies in a loop or a `try`."""
    for node in nodes_within(scope, nodes.Return, (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)):
        parent = node.parent
        while parent is not None and parent is not scope:
            if isinstance(parent, (nodes.For, nodes.AsyncFor, nodes.While, *TRY_NODES)):
                return True
            parent = parent.parent
    return False


def evaluated_whenever_statement_runs(expr: nodes.NodeNG) -> bool:
    """Whether every run of the statement that holds `expr` evaluates it, up to it: it lies in no
    arm of a conditional expression, no operand of `and`/`or` past the first, no part of a
    comprehension but its first source, no lambda."""
    child, parent = expr, expr.parent
    while parent is not None and not child.is_statement:
        if isinstance(parent, nodes.IfExp) and child is not parent.test:
            return False
        if isinstance(parent, nodes.BoolOp) and child is not parent.values[0]:
            return False
        if isinstance(parent, (nodes.ListComp, nodes.SetComp, nodes.DictComp, nodes.GeneratorExp)) and child is not parent.generators[0]:
            return False
        if isinstance(parent, nodes.Comprehension) and child is not parent.iter:
            return False
        if isinstance(parent, nodes.Lambda):
            return False
        child, parent = parent, parent.parent
    return True


def may_repeat(node: nodes.NodeNG) -> bool:
    """Whether one run of its function (or module) may evaluate `node` more than once: it lies in
    a loop's body or a comprehension's element or filters, of the same scope."""
    child, parent = node, node.parent
    while parent is not None and not isinstance(child, (nodes.FunctionDef, nodes.AsyncFunctionDef, nodes.Lambda, nodes.ClassDef, nodes.Module)):
        if isinstance(parent, (nodes.For, nodes.AsyncFor)) and child in parent.body or isinstance(parent, nodes.While) and child is not parent.test:
            return True
        if isinstance(parent, (nodes.ListComp, nodes.SetComp, nodes.DictComp, nodes.GeneratorExp)) and child is not parent.generators[0]:
            return True
        child, parent = parent, parent.parent
    return False


def assigned_name(call: nodes.Call) -> Optional[str]:
    """`x` in `x = Cls(...)`: the name a constructed object is known by in messages."""
    parent = call.parent
    if isinstance(parent, (nodes.Assign, nodes.AnnAssign)) and parent.value is call:
        targets = parent.targets if isinstance(parent, nodes.Assign) else [parent.target]
        if len(targets) == 1 and isinstance(targets[0], nodes.AssignName):
            return targets[0].name
        if len(targets) == 1 and isinstance(targets[0], nodes.AssignAttr):
            return paths.attribute_chain(targets[0])
    return None


def callee_name(func: nodes.NodeNG) -> str:
    return func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", "optimizer")


def positional_parameters(arguments: nodes.Arguments) -> List[nodes.AssignName]:
    """The parameters a call may bind by position, in order (positional-only ones first)."""
    return list(arguments.posonlyargs or []) + list(arguments.args or [])


def named_parameters(func: nodes.FunctionDef) -> List[nodes.AssignName]:
    """Every parameter a call binds by its name or position, in order: not `*args`/`**kwargs`."""
    return positional_parameters(func.args) + list(func.args.kwonlyargs or [])


def defaults(arguments: nodes.Arguments):
    positional = positional_parameters(arguments)
    defaults = list(arguments.defaults or [])
    for arg, default in zip(positional[len(positional) - len(defaults):], defaults):
        yield arg.name, default
    for arg, default in zip(arguments.kwonlyargs or [], arguments.kw_defaults or []):
        if default is not None:
            yield arg.name, default


def first_param(func: nodes.FunctionDef) -> Optional[str]:
    positional = positional_parameters(func.args)
    return positional[0].name if positional else None


def is_instance_method(func: nodes.FunctionDef) -> bool:
    """A method whose first parameter is the object it is called on."""
    return isinstance(func.parent, nodes.ClassDef) and not is_staticmethod(func) and not is_classmethod(func) and first_param(func) is not None


def decorator_names(func: nodes.FunctionDef) -> List[str]:
    decorators = func.decorators.nodes if func.decorators else []
    return [d.name if isinstance(d, nodes.Name) else getattr(d, "attrname", "") for d in decorators]


def is_staticmethod(func: nodes.FunctionDef) -> bool:
    return "staticmethod" in decorator_names(func)


def is_classmethod(func: nodes.FunctionDef) -> bool:
    return "classmethod" in decorator_names(func)


def entered_by_with(call: nodes.NodeNG) -> bool:
    """Whether the call's value is what a `with` enters: `with cm(...):`, also as an arm of a
    conditional (`with cm(...) if optimizer is not None else nullcontext():`)."""
    node = call
    while isinstance(node.parent, nodes.IfExp) and node is not node.parent.test:
        node = node.parent
    parent = node.parent
    return isinstance(parent, (nodes.With, nodes.AsyncWith)) and any(item is node for item, _ in parent.items)


@functools.lru_cache(maxsize=1 << 12)
def attribute_tested(func: nodes.FunctionDef) -> FrozenSet[str]:
    """The names whose attributes a test of `func` reads (an `if`, `while` or conditional
    expression of its own, not of a nested function): `args.fsdp`, `getattr(args, "fsdp",
    False)`, `hasattr(args, "fsdp")`."""
    found = set()
    for statement in nodes_within(func, (nodes.If, nodes.While, nodes.IfExp)):
        if statement.scope() is not func:
            continue
        for node in statement.test.nodes_of_class((nodes.Attribute, nodes.Call)):
            if isinstance(node, nodes.Attribute) and isinstance(node.expr, nodes.Name):
                found.add(node.expr.name)
            elif isinstance(node, nodes.Call) and getattr(node.func, "name", None) in ("getattr", "hasattr") and node.args and isinstance(node.args[0], nodes.Name):
                found.add(node.args[0].name)
    return frozenset(found)
