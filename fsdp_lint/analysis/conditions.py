"""What the enclosing `if` tests of a point say about who runs it: only some ranks (`if rank == 0:`).

Read from `Flow.conditions` (the tests of the `if`/`while` statements around the current
statement) and from the decorators of the function being walked (`@rank_zero_only`), so rules ask
one question instead of re-walking the tree. Which FSDP version a path runs is no text of its
tests: the outcomes of tests of flags fix it (`fsdp_lint.analysis.flags`).
"""

from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Tuple

from astroid import nodes

from fsdp_lint.analysis.names import binding_of
from fsdp_lint.analysis.values import Value, options_of, truth
from fsdp_lint.engine.prefilter import import_bound_names

if TYPE_CHECKING:
    from fsdp_lint.analysis.flow import Flow
    from fsdp_lint.engine.rule import ScreenedFile

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
# Every name above contains one of these: a scope whose identifiers contain none cannot test a rank.
RANK_WORDS = ("rank", "main", "master", "process_index", "global_zero", "local_zero", "logging_process")
# `local_rank == -1` / `rank is None` mean "not distributed": every process takes the branch.
_NOT_DISTRIBUTED_SENTINELS = (-1, None)
_MAX_DEPTH = 6  # operators and name bindings looked through (`if not do_sample:` with `do_sample = get_rank() == 0`: 5)


# Whether a parameter read in a test holds a rank, from where its value came (`Flow`'s calling
# context); None where that does not say, and its name does.
ParameterRank = Callable[[nodes.Name], Optional[bool]]


def _by_name(name: nodes.Name) -> Optional[bool]:
    return None


def rank_test(expr: nodes.NodeNG, taken: bool = True, depth: int = 0, parameter: ParameterRank = _by_name) -> bool:
    """Whether the branch of `expr` that is `taken` (the body when True, the else when False) runs
    on some ranks and not on others, whatever the other operands of the test evaluate to."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, nodes.UnaryOp) and expr.op == "not":
        return rank_test(expr.operand, not taken, depth + 1, parameter)
    if isinstance(expr, nodes.BoolOp):
        # `a and b` is taken only where both hold: one rank test narrows it. Its else branch is
        # narrowed only when every operand is a rank test (and dually for `or`).
        narrowing = [rank_test(value, taken, depth + 1, parameter) or _not_distributed(value) for value in expr.values]
        if (expr.op == "and") == taken:
            return any(rank_test(value, taken, depth + 1, parameter) for value in expr.values)
        return all(narrowing) and any(rank_test(value, taken, depth + 1, parameter) for value in expr.values)
    if isinstance(expr, nodes.Compare):
        operands = [expr.left] + [right for _, right in expr.ops]
        if any(isinstance(o, nodes.Const) and o.value in _NOT_DISTRIBUTED_SENTINELS for o in operands):
            return False
        if any(isinstance(o, nodes.UnaryOp) and o.op == "-" for o in operands):
            return False
        return any(_is_rank_value(o, depth + 1, parameter) for o in operands)
    return _is_rank_value(expr, depth + 1, parameter)


def _not_distributed(expr: nodes.NodeNG) -> bool:
    """`not dist.is_initialized()` / `world_size == 1` as an alternative that single-process runs take."""
    text = expr.as_string()
    return "is_initialized" in text or "world_size" in text or "is_available" in text


def _is_rank_value(expr: nodes.NodeNG, depth: int, parameter: ParameterRank = _by_name) -> bool:
    """A rank (`dist.get_rank()`, `self.rank`, `rank % 8`) or a main-rank flag (`is_main_process`);
    a parameter where its value may come from one (`parameter`)."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, nodes.Call):
        func = expr.func
        name = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", None)
        return name in _RANK_FUNCTIONS or bool(name and _RANK_NAME.match(name))
    if isinstance(expr, nodes.BinOp):
        return _is_rank_value(expr.left, depth + 1, parameter)
    if isinstance(expr, nodes.Attribute):
        return bool(_RANK_NAME.match(expr.attrname))
    if isinstance(expr, nodes.Name):
        passed = parameter(expr)
        if passed is not None:
            return passed
        if _RANK_NAME.match(expr.name):
            return True
        return _derived_from_rank(expr, depth + 1, parameter)
    return False


def _derived_from_rank(name: nodes.Name, depth: int, parameter: ParameterRank) -> bool:
    """`is_main = dist.get_rank() == 0` or `r = get_rank()` in the same scope, read later as `name`."""
    binding = binding_of(name, name.name)
    if not isinstance(binding, nodes.AssignName) or not isinstance(binding.parent, nodes.Assign):
        return False
    value = binding.parent.value
    if isinstance(value, (nodes.Compare, nodes.BoolOp, nodes.UnaryOp)):
        return rank_test(value, True, depth + 1, parameter)
    return _is_rank_value(value, depth + 1, parameter)


def mentions_rank(expr: nodes.NodeNG) -> bool:
    """Whether an expression (a checkpoint's file name) is built from the rank: its own text, or
    that of the one assignment binding the name it reads (`path = f"model_rank{rank}.pt"`)."""
    for _ in range(_MAX_DEPTH):
        if "rank" in expr.as_string().lower():
            return True
        if not isinstance(expr, nodes.Name):
            return False
        binding = binding_of(expr, expr.name)
        if not isinstance(binding, nodes.AssignName) or not isinstance(binding.parent, nodes.Assign):
            return False
        expr = binding.parent.value
    return False


class RankBranch(NamedTuple):
    """A test (or decorator) that only some ranks pass, and how a message words the ranks that
    get past it: the test itself, or its negation where the code continues on its other arm
    (`if not do_sample: return`)."""

    node: nodes.NodeNG
    text: str


def rank_only_branch(flow: "Flow") -> Optional[RankBranch]:
    """The innermost enclosing test (or decorator) that only some ranks pass, if any."""
    for test, taken in reversed(flow.conditions):
        if rank_test(test, taken, parameter=flow.parameter_rank):
            return RankBranch(test, test.as_string() if taken else _negated(test))
    scope = flow.scope
    if isinstance(scope, nodes.FunctionDef) and scope.decorators:
        for decorator in scope.decorators.nodes:
            target = decorator.func if isinstance(decorator, nodes.Call) else decorator
            name = target.attrname if isinstance(target, nodes.Attribute) else getattr(target, "name", None)
            if name in _RANK_ZERO_DECORATORS:
                return RankBranch(decorator, decorator.as_string())
    return None


_NEGATED_OPERATORS = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "is": "is not", "is not": "is", "in": "not in", "not in": "in"}


def _negated(test: nodes.NodeNG) -> str:
    """The source of a test's negation, as a reader would write it."""
    if isinstance(test, nodes.UnaryOp) and test.op == "not":
        return test.operand.as_string()
    if isinstance(test, nodes.Compare) and len(test.ops) == 1 and test.ops[0][0] in _NEGATED_OPERATORS:
        return f"{test.left.as_string()} {_NEGATED_OPERATORS[test.ops[0][0]]} {test.ops[0][1].as_string()}"
    return f"not ({test.as_string()})" if isinstance(test, (nodes.BoolOp, nodes.Compare)) else f"not {test.as_string()}"


_LOOKED_THROUGH = (nodes.Call, nodes.BoolOp, nodes.UnaryOp, nodes.Compare)


def passed_names(test: nodes.NodeNG) -> List[str]:
    """The names a test hands to a call (`isinstance(model, FSDP)`, `fsdp_version(model) == 1`,
    also under `not`, `and`/`or` and comparisons): what it may tell apart the values of. Asked
    for every `if` walked, so only those operators are looked through."""
    found: List[str] = []
    if type(test) not in _LOOKED_THROUGH:
        return found
    pending = [test]
    while pending:
        node = pending.pop()
        kind = type(node)
        if kind is nodes.Call:
            for arg in node.args:
                if type(arg) is nodes.Name:
                    if arg.name not in found:
                        found.append(arg.name)
                else:
                    pending.append(arg)
        elif kind is nodes.BoolOp:
            pending.extend(node.values)
        elif kind is nodes.UnaryOp:
            pending.append(node.operand)
        elif kind is nodes.Compare:
            pending.append(node.left)
            for _, right in node.ops:
                pending.append(right)
    return found


def test_truth(test: nodes.NodeNG, value_of: Callable[[nodes.NodeNG], Value]) -> Optional[bool]:
    """The truth value of a test the walk just evaluated, where its values settle it: `not`
    flips, `a and b` is false once an operand is (the walk evaluates no operand after it) and true
    when all are, `a or b` dually; None where it is not known."""
    if isinstance(test, nodes.UnaryOp) and test.op == "not":
        inner = test_truth(test.operand, value_of)
        return None if inner is None else not inner
    if isinstance(test, nodes.BoolOp):
        settling = test.op == "or"  # the truth value of an operand that settles the test
        known = True
        for operand in test.values:
            found = test_truth(operand, value_of)
            if found is settling:
                return settling
            known = known and found is not None
        return not settling if known else None
    truths = {truth(option) for option in options_of(value_of(test))}
    return truths.pop() if len(truths) == 1 else None


# What `Flow.conditions` are made of, for the stdlib-syntax screen below (more is harmless).
_CONDITIONAL = (ast.If, ast.While, ast.IfExp, ast.Match, ast.comprehension)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_RANK_BYTES = "|".join(RANK_WORDS).encode()  # a pattern, compiled on first use (by `re`'s cache): most runs never screen
# `name = ` where a statement starts (a line, or after `;`), and the end of a one-name value.
_ASSIGNED_PREFIX = rb"(?m)(?:^|(?<=;))[ \t]*(\w+)[ \t]*=(?!=)[ \t]*"
_VALUE_END = rb"[ \t]*(?:[#;\r\\]|$)"


def may_call_under_rank_test(file: "ScreenedFile", methods: FrozenSet[str], functions: FrozenSet[str]) -> bool:
    """Whether a call of one of `methods` (on any receiver: `t.full_tensor()`) or `functions` (by
    their qualified names: `dcp.save`, `save`, a local alias of one) may sit where
    `rank_only_branch` finds a rank test; read from the bytes and the stdlib syntax tree.

    An over-approximation, so that the engine can skip a file that answers False: some scope
    (module or function; nested bodies included, nested functions not) makes such a call, holds
    an `if`/`while`/conditional expression or is decorated, and an identifier that may name a
    rank (`RANK_WORDS`) occurs in it, its decorators or an enclosing scope (where a name the
    test reads may be bound: `is_main = rank == 0`). A function called as an attribute counts
    only on a chain that starts at a name a qualified name can start from (an import, a `def`
    or `class`, an alias): `self.model.load_state_dict(...)` is no DCP call. Only the statements
    around the lines that name a call are visited: on DCP's own modules the whole-tree walk
    cost more than it saved.
    """
    readable = file.data.isascii()  # else an identifier may normalise to a rank word or a name (NFKC)
    if readable and not re.search(_RANK_BYTES, file.data):
        return False
    functions = functions | _aliases(file.data, functions)
    lines = _lines_calling(file.data, methods | functions) if readable else list(range(1, file.data.count(b"\n") + 2))
    if not lines:
        return False
    calls = _Calls(methods, functions, _qualifiable_names(file.data))
    scopes: Dict[int, Tuple[ast.AST, ...]] = {}
    _scopes_at(file.module.body, lines, (file.module,), scopes)
    seen: Dict[int, _OwnNodes] = {}
    for chain in scopes.values():
        own = _own_nodes(chain[-1], calls, seen)
        if not own.calls or not (own.conditional or getattr(chain[-1], "decorator_list", None)):
            continue
        if own.rank or any(_own_nodes(outer, calls, seen).rank for outer in chain[:-1]):
            return True
    return False


@dataclass(frozen=True)
class _Calls:
    methods: FrozenSet[str]
    functions: FrozenSet[str]
    roots: Optional[FrozenSet[str]]  # where a qualified name can start; None: anywhere

    def match(self, func: ast.AST) -> bool:
        if isinstance(func, ast.Name):
            return func.id in self.functions
        if not isinstance(func, ast.Attribute):
            return False
        if func.attr in self.methods:
            return True
        if func.attr not in self.functions:
            return False
        root = func.value
        while isinstance(root, ast.Attribute):
            root = root.value
        return isinstance(root, ast.Name) and (self.roots is None or root.id in self.roots)


def _qualifiable_names(data: bytes) -> Optional[FrozenSet[str]]:
    """A superset of the names `names.qualified_name` can resolve from: bound by an import, a
    `def` or `class`, or an assignment of a name or attribute (`ckpt = torch.distributed.checkpoint`).
    None when the imports cannot be read from the bytes."""
    imported = import_bound_names(data)
    if imported is None:
        return None
    defined = re.findall(rb"\b(?:def|class)[ \t]+(\w+)", data)
    assigned = re.findall(_ASSIGNED_PREFIX + rb"(?:[\w.]+" + _VALUE_END + rb"|[(\\])", data)
    return imported | frozenset(name.decode() for name in defined + assigned)


def _aliases(data: bytes, names: FrozenSet[str]) -> FrozenSet[str]:
    """Names the file binds to one of `names`: `import save as dcp_save`, `f = dcp.save`."""
    words = b"|".join(re.escape(name.encode()) for name in sorted(names))
    found = re.findall(rb"\b(?:" + words + rb")[ \t]+as[ \t]+(\w+)", data)
    found += re.findall(_ASSIGNED_PREFIX + rb"\(?[\w.\s\\]*\b(?:" + words + rb")\s*\)?" + _VALUE_END, data)
    return frozenset(alias.decode() for alias in found)


def _lines_calling(data: bytes, names: FrozenSet[str]) -> List[int]:
    """The line numbers where one of `names` is called (followed by `(`), sorted: none, and the
    file is not parsed at all."""
    if b"\r" in data:  # Python ends lines with `\r` alone too: count lines as it does
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    words = b"|".join(re.escape(name.encode()) for name in sorted(names))
    pattern = re.compile(rb"(?<!\w)(?:" + words + rb")\s*\(")
    lines, line, counted = [], 1, 0
    for match in pattern.finditer(data):
        line += data.count(b"\n", counted, match.start())
        counted = match.start()
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


def _scopes_at(body: Sequence[ast.stmt], lines: List[int], chain: Tuple[ast.AST, ...], found: Dict[int, Tuple[ast.AST, ...]]) -> None:
    """Record, by id, the chain of scopes (module first) around each statement that spans one of
    `lines`; a compound statement counts for its own scope too (its header may hold the call)."""
    for statement in body:
        start = min([statement.lineno] + [decorator.lineno for decorator in getattr(statement, "decorator_list", ())])
        first = bisect.bisect_left(lines, start)
        if first == len(lines) or lines[first] > (statement.end_lineno or start):
            continue
        if isinstance(statement, _SCOPES):
            # Decorators, defaults and bases are evaluated in the enclosing scope.
            if lines[first] <= statement.body[0].lineno:
                found[id(chain[-1])] = chain
            _scopes_at(statement.body, lines, chain + (statement,), found)
            continue
        found[id(chain[-1])] = chain
        for field in ("body", "orelse", "finalbody"):
            _scopes_at(getattr(statement, field, ()), lines, chain, found)
        for part in getattr(statement, "handlers", []) + getattr(statement, "cases", []):
            _scopes_at(part.body, lines, chain, found)


@dataclass
class _OwnNodes:
    """What a scope's own nodes hold: nested functions and classes left out, its decorators and
    theirs (evaluated in it) counted."""

    calls: bool = False  # a call that `_Calls.match`es
    conditional: bool = False
    rank: bool = False  # an identifier that may name a rank


def _own_nodes(scope: ast.AST, calls: _Calls, seen: Dict[int, _OwnNodes]) -> _OwnNodes:
    if id(scope) not in seen:
        own = seen[id(scope)] = _OwnNodes()
        pending: List[ast.AST] = list(getattr(scope, "decorator_list", ())) + list(getattr(scope, "body", ()))
        while pending:
            node = pending.pop()
            if isinstance(node, _SCOPES):
                pending.extend(node.decorator_list)
                continue
            if isinstance(node, ast.Call):
                own.calls = own.calls or calls.match(node.func)
            elif isinstance(node, _CONDITIONAL):
                own.conditional = True
            identifier = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            own.rank = own.rank or (identifier is not None and any(word in identifier for word in RANK_WORDS))
            pending.extend(ast.iter_child_nodes(node))
    return seen[id(scope)]

