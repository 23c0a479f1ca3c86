"""What the enclosing `if` tests of a point say about who runs it: only some ranks (`if rank == 0:`),
or only an FSDP1 code path (`if isinstance(m, FullyShardedDataParallel):`).

Both are read from `Flow.conditions` (the tests of the `if`/`while` statements around the current
statement) and from the decorators of the function being walked (`@rank_zero_only`), so rules ask
one question instead of re-walking the tree.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional

from astroid import nodes

from fsdp_lint.analysis.names import binding_of

if TYPE_CHECKING:
    from fsdp_lint.analysis.flow import Flow

# Functions that return this process's rank, by their last name component.
_RANK_FUNCTIONS = frozenset({"get_rank", "get_local_rank", "get_global_rank", "get_node_local_rank"})
# Names (variables, attributes) that hold a rank or say "this is the main rank".
_RANK_NAME = re.compile(
    r"^_?(rank|local_rank|global_rank|node_rank|dp_rank|process_index|local_process_index|"
    r"is_main_process|is_local_main_process|is_main|is_master|master_process|is_master_process|"
    r"is_rank_zero|is_rank_0|rank_zero|rank0|is_rank0|is_global_zero|is_local_zero|main_process|is_logging_process)$"
)
# Decorators that make a whole function run on rank 0 only.
_RANK_ZERO_DECORATORS = frozenset({"rank_zero_only", "main_process_only", "on_main_process", "on_local_main_process", "on_rank0", "rank0_only"})
# `local_rank == -1` / `rank is None` mean "not distributed": every process takes the branch.
_NOT_DISTRIBUTED_SENTINELS = (-1, None)
_MAX_DEPTH = 4

_FSDP1_NAMES = re.compile(r"(FullyShardedDataParallel|^FSDP1?$|fsdp_version|is_fsdp2|is_fsdp1|use_fsdp2|fsdp2|fsdp1|_fsdp_wrapped_module)", re.I)


def rank_test(expr: nodes.NodeNG, taken: bool = True, depth: int = 0) -> bool:
    """Whether the branch of `expr` that is `taken` (the body when True, the else when False) runs
    on some ranks and not on others, whatever the other operands of the test evaluate to."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, nodes.UnaryOp) and expr.op == "not":
        return rank_test(expr.operand, not taken, depth + 1)
    if isinstance(expr, nodes.BoolOp):
        # `a and b` is taken only where both hold: one rank test narrows it. Its else branch is
        # narrowed only when every operand is a rank test (and dually for `or`).
        narrowing = [rank_test(value, taken, depth + 1) or _not_distributed(value) for value in expr.values]
        if (expr.op == "and") == taken:
            return any(rank_test(value, taken, depth + 1) for value in expr.values)
        return all(narrowing) and any(rank_test(value, taken, depth + 1) for value in expr.values)
    if isinstance(expr, nodes.Compare):
        operands = [expr.left] + [right for _, right in expr.ops]
        if any(isinstance(o, nodes.Const) and o.value in _NOT_DISTRIBUTED_SENTINELS for o in operands):
            return False
        if any(isinstance(o, nodes.UnaryOp) and o.op == "-" for o in operands):
            return False
        return any(_is_rank_value(o, depth + 1) for o in operands)
    return _is_rank_value(expr, depth + 1)


def _not_distributed(expr: nodes.NodeNG) -> bool:
    """`not dist.is_initialized()` / `world_size == 1` as an alternative that single-process runs take."""
    text = expr.as_string()
    return "is_initialized" in text or "world_size" in text or "is_available" in text


def _is_rank_value(expr: nodes.NodeNG, depth: int) -> bool:
    """A rank (`dist.get_rank()`, `self.rank`, `rank % 8`) or a main-rank flag (`is_main_process`)."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, nodes.Call):
        func = expr.func
        name = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", None)
        return name in _RANK_FUNCTIONS or bool(name and _RANK_NAME.match(name))
    if isinstance(expr, nodes.BinOp):
        return _is_rank_value(expr.left, depth + 1)
    if isinstance(expr, nodes.Attribute):
        return bool(_RANK_NAME.match(expr.attrname))
    if isinstance(expr, nodes.Name):
        if _RANK_NAME.match(expr.name):
            return True
        return _derived_from_rank(expr, depth + 1)
    return False


def _derived_from_rank(name: nodes.Name, depth: int) -> bool:
    """`is_main = dist.get_rank() == 0` or `r = get_rank()` in the same scope, read later as `name`."""
    binding = binding_of(name, name.name)
    if not isinstance(binding, nodes.AssignName) or not isinstance(binding.parent, nodes.Assign):
        return False
    value = binding.parent.value
    if isinstance(value, (nodes.Compare, nodes.BoolOp, nodes.UnaryOp)):
        return rank_test(value, True, depth + 1)
    return _is_rank_value(value, depth + 1)


def rank_only_branch(flow: "Flow") -> Optional[nodes.NodeNG]:
    """The innermost enclosing test (or decorator) that only some ranks pass, if any."""
    for test, taken in reversed(flow.conditions):
        if rank_test(test, taken):
            return test
    scope = flow.scope
    if isinstance(scope, nodes.FunctionDef) and scope.decorators:
        for decorator in scope.decorators.nodes:
            target = decorator.func if isinstance(decorator, nodes.Call) else decorator
            name = target.attrname if isinstance(target, nodes.Attribute) else getattr(target, "name", None)
            if name in _RANK_ZERO_DECORATORS:
                return decorator
    return None


def fsdp_version_branch(flow: "Flow") -> bool:
    """Whether an enclosing test tells FSDP1 and FSDP2 apart (`isinstance(m, FSDP)`,
    `fsdp_version(m) == 1`, `self.is_fsdp2`) or feature-detects the receiver (`hasattr(m, "no_sync")`):
    code under it is written for whichever version that branch selects."""
    for test, _ in flow.conditions:
        for node in _walk(test):
            if isinstance(node, nodes.Name) and _FSDP1_NAMES.search(node.name):
                return True
            if isinstance(node, nodes.Attribute) and _FSDP1_NAMES.search(node.attrname):
                return True
            if isinstance(node, nodes.Const) and isinstance(node.value, str) and node.value.lower() in ("fsdp", "fsdp1", "fsdp2"):
                return True
            if isinstance(node, nodes.Call) and getattr(node.func, "name", None) == "hasattr":
                return True
    return False


def _walk(expr: nodes.NodeNG):
    yield expr
    for child in expr.get_children():
        yield from _walk(child)
