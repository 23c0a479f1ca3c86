"""Flags stored on an object (`self.enable_weight_tying`, set once in `__init__`) that decide
branches in several of its methods and in the functions it is passed to.

The branch atoms of `fsdp_lint.analysis.paths` are texts of one function, so `if
self.tie_word_embeddings:` in `__init__` and `if not model.tie_word_embeddings:` in a sharding
helper are unrelated atoms. Here a branch outcome is read as the values it fixes for attributes
of objects (`Flow.flag_value`): their truth values, and their equality with constants
(`cfg.fsdp_version == 1`); and what a class does under a flag records that flag as a guard
(`Project.class_facts`), so the two meet on the object whatever the tests' texts.
"""

from __future__ import annotations

from typing import Callable, Dict, FrozenSet, List, Optional, Set, Tuple, TypeVar

from astroid import nodes

from fsdp_lint.analysis.context import AttrPath
from fsdp_lint.analysis.node_listing import nodes_within
from fsdp_lint.analysis.paths import TRUTH, Test, name_chain, none_test

Guard = Tuple[AttrPath, Test, bool]  # an attribute path from `self`, a test of it, and its outcome
T = TypeVar("T")

_EQUALITY = {"==": True, "is": True, "!=": False, "is not": False, "in": True, "not in": False}


def test_flags(test: nodes.NodeNG, taken: bool, subject: Callable[[nodes.NodeNG], Optional[T]]) -> List[Tuple[T, Test, bool]]:
    """The outcomes of tests of attributes that taking the `taken` arm of `test` fixes:
    `subject(expr)` says what an operand tests (None: nothing this module tracks). `not` flips;
    `a and b` taken fixes both, `a or b` not taken fixes both, the other outcomes fix neither.
    `x is None` is "x is false" and `x is not None` "x is true": the attributes tested so hold an
    object or None. A comparison with constants is an equality test (`x == 1`, `x != 1`,
    `x in (1, 2)` not taken: not 1 and not 2; taken, its truth value where the constants agree)."""
    while isinstance(test, nodes.UnaryOp) and test.op == "not":
        test, taken = test.operand, not taken
    tested = none_test(test)
    if tested is not None:
        subject_expr, is_none = tested
        return test_flags(subject_expr, taken != is_none, subject)
    if isinstance(test, nodes.BoolOp):
        if (test.op == "and") != taken:
            return []
        return [flag for operand in test.values for flag in test_flags(operand, taken, subject)]
    compared = _compared(test)
    if compared is not None:
        expr, constants, equal = compared
        found = subject(expr)
        if found is None:
            return []
        if taken != equal:  # it equals none of them
            return [(found, (constant,), False) for constant in constants]
        if len(constants) == 1:
            return [(found, (constants[0],), True)]
        truths = {bool(constant) for constant in constants}
        return [(found, TRUTH, truths.pop())] if len(truths) == 1 else []
    found = subject(test)
    return [(found, TRUTH, taken)] if found is not None else []


def exact_flags(test: nodes.NodeNG, taken: bool, subject: Callable[[nodes.NodeNG], Optional[T]]) -> Optional[List[Tuple[T, Test, bool]]]:
    """The outcomes of `test_flags` where they say all that taking the `taken` arm says (every
    run that fixes them takes it): a test of attributes, `not` one, `a and b` taken or `a or b`
    not taken of such tests; None where the arm may hold on other runs too (`a or b` taken, a
    test of something that is no attribute)."""
    while isinstance(test, nodes.UnaryOp) and test.op == "not":
        test, taken = test.operand, not taken
    tested = none_test(test)
    if tested is not None:
        return exact_flags(tested[0], taken != tested[1], subject)
    if isinstance(test, nodes.BoolOp):
        if (test.op == "and") != taken and len(test.values) > 1:
            return None
        found: List[Tuple[T, Test, bool]] = []
        for operand in test.values:
            inner = exact_flags(operand, taken, subject)
            if inner is None:
                return None
            found += inner
        return found
    compared = _compared(test)
    if compared is not None:
        flags = test_flags(test, taken, subject)
        return flags if flags and (taken != compared[2] or len(compared[1]) == 1) else None
    found_subject = subject(test)
    return [(found_subject, TRUTH, taken)] if found_subject is not None else None


def _compared(test: nodes.NodeNG) -> Optional[Tuple[nodes.NodeNG, Tuple[object, ...], bool]]:
    """`x == 1` -> (x, (1,), True), `x not in (1, 2)` -> (x, (1, 2), False), also with the
    constant first (`1 == x`); None for other tests."""
    if type(test) is not nodes.Compare or len(test.ops) != 1 or test.ops[0][0] not in _EQUALITY:
        return None
    op, right = test.ops[0]
    left = test.left
    if op in ("in", "not in"):
        items = right.elts if isinstance(right, (nodes.Tuple, nodes.List, nodes.Set)) else None
        if not items or not all(isinstance(item, nodes.Const) for item in items):
            return None
        return left, tuple(item.value for item in items), _EQUALITY[op]
    if isinstance(left, nodes.Const) and not isinstance(right, nodes.Const):
        left, right = right, left
    if not isinstance(right, nodes.Const):
        return None
    return left, (right.value,), _EQUALITY[op]


def self_path(expr: nodes.NodeNG) -> Optional[AttrPath]:
    """`self.a.b` -> ("a", "b"), for attribute chains on the method's `self`."""
    chain = name_chain(expr)
    return chain[1:] if chain is not None and chain[0] == "self" and len(chain) > 1 else None


class ClassFlags:
    """The guards of the statements in one class's methods (with its tree bases)."""

    def __init__(self, classes: List[nodes.ClassDef]):
        # every method of the hierarchy, overridden ones too (a base `__init__` runs through
        # `super().__init__()`): more call sites can only leave fewer guards in common
        self._methods = [method for cls in classes for method in cls.mymethods()]
        self._stable = _set_once_in_init(classes)

    def guards(self, node: nodes.NodeNG) -> FrozenSet[Guard]:
        """The flags of `self` that hold whenever `node` runs: the tests of the `if`s around it
        in its method, and for a helper the class calls only as `self.helper()`, the guards
        every such call has in common."""
        method = node.scope()
        found = set(self._enclosing(node, method))
        if isinstance(method, nodes.FunctionDef) and method.name != "__init__":
            sites = [call for other in self._methods for call in nodes_within(other, nodes.Call)
                     if self_path(call.func) == (method.name,) and call.scope() is not method]
            if sites:
                shared = set(self._enclosing(sites[0], sites[0].scope()))
                for site in sites[1:]:
                    shared &= set(self._enclosing(site, site.scope()))
                found |= shared
        return frozenset(found)

    def _enclosing(self, node: nodes.NodeNG, method: nodes.NodeNG) -> List[Guard]:
        stored = _init_params_stored(method) if isinstance(method, nodes.FunctionDef) and method.name == "__init__" else {}

        def subject(expr: nodes.NodeNG) -> Optional[AttrPath]:
            path = self_path(expr) or (stored.get(expr.name) if isinstance(expr, nodes.Name) else None)
            return path if path is not None and path[0] in self._stable else None

        found: List[Guard] = []
        child, parent = node, node.parent
        while parent is not None and parent is not method:
            if isinstance(parent, nodes.If) and child is not parent.test:
                found += test_flags(parent.test, child in parent.body, subject)
            child, parent = parent, parent.parent
        return found


def _set_once_in_init(classes: List[nodes.ClassDef]) -> Set[str]:
    """The attributes of `self` that one assignment in an `__init__` of the class or its bases
    sets and nothing else rebinds: flags, whose value is the same in every method."""
    where: Dict[str, List[nodes.NodeNG]] = {}
    for cls in classes:
        for target in nodes_within(cls, nodes.AssignAttr):
            path = self_path(target)
            if path is not None and len(path) == 1:
                where.setdefault(path[0], []).append(target.scope())
    return {attr for attr, scopes in where.items() if len(scopes) == 1 and getattr(scopes[0], "name", None) == "__init__"}


def _init_params_stored(init: nodes.FunctionDef) -> Dict[str, AttrPath]:
    """An `__init__`'s parameters stored unchanged as a flag (`self.tie = tie`): in that
    `__init__`, a test of the parameter is a test of the flag."""
    params = {arg.name for arg in init.args.args or []} | {arg.name for arg in init.args.kwonlyargs or []}
    stored: Dict[str, AttrPath] = {}
    for assign in nodes_within(init, nodes.Assign):
        if isinstance(assign.value, nodes.Name) and assign.value.name in params:
            for target in assign.targets:
                path = self_path(target)
                if path is not None and len(path) == 1:
                    stored[assign.value.name] = path
    return stored
