"""Which branches a point of a function lies on, so that "A happens before B" holds only when one
run of the function can pass through both.

A path is the set of branch outcomes taken to reach a point: literals `(atom, taken)`, where the
atom is the tested condition as it reads (`args.fsdp`, `self.world_mesh is None`) together with
the versions of the names it reads. Two tests of the same unchanged flag share an atom, so
`if args.fsdp: fully_shard(m)` ... `if args.fsdp: ... else: m.forward(x)` puts the shard and the
bypass on incompatible paths; once `args` is rebound, the atom is a different one. Equality tests
of one subject against different constants (`fsdp_version == 1` / `fsdp_version == 2`) cannot
both be true.

A flag literal (`flag`) is about an attribute of an object rather than a text: the value a test
fixes for `model.tie_embeddings` (`fsdp_lint.analysis.flags`), or for `cfg.fsdp_version == 1`.
Its atom names the object by its root, so it survives where texts do not: into a callee that
receives the object, and back to the caller through a summary, with the root mapped (`Flow`), so
that a test in one function and a test in another of the same attribute of the same object take
the same arm. Tests of one attribute decide each other where Python does: `== 1` true makes it
truthy and `== 2` false, falsy makes `== 1` false (`implied`).

A module being an `FSDPModule` is a flag too, of an attribute no Python object has
(`FSDP_MODULE`): `fully_shard(model)` makes it true on the runs that make the call (its event
holds the literal), and a test `isinstance(model, FSDPModule)` fixes it on each arm, so that the
arm where `model` is no `FSDPModule` is on no run that sharded it, here, in a caller or in a
callee (a helper that returns early on a model a first call already sharded).

An identity literal (`same`) says that two attributes are one object (`embed.weight is
head.weight`, a tie): like a flag, it names the objects by their roots, and travels as flags do.
Where a name is bound to one of several objects (`head = inner_head or outer_head`), a choice
literal (`chosen`) says which one it is on a run, so that what a test found of each (an identity)
holds where a call on the same name (`fully_shard(head)`) took that one.

A dead literal (`dead`) excludes a conjunction: the path of a run that left the function (a
`return` or `raise` in one arm), where the arms that go on all contradict it. After
`if a: ... elif b: return` the arms that fall through are `a` and `not a, not b`; what they share
is nothing, but no run that took `not a, b` gets past the join, and the dead literal says so.
"""

from __future__ import annotations

import functools
from typing import AbstractSet, Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Tuple

from astroid import nodes

from fsdp_lint.analysis.values import Obj, Root

# ("bool", text) or ("eq", subject text, constant repr), where text carries the versions of its
# names; ("flag", root, attribute path, test) for an attribute of an object; ("same", (root,
# attribute path), (root, attribute path)) for two attributes that are one object, in order.
Atom = Tuple[object, ...]
Literal = Tuple[Atom, bool]
Path = FrozenSet[Literal]
EMPTY: Path = frozenset()
# What a flag literal tests of its attribute: its truth value (TRUTH), or equality with a
# constant, `(1,)` for `== 1` (the constant itself: `== 1` and `== True` are one test, as in Python).
Test = Tuple[object, ...]
TRUTH: Test = ()

_EQUALITY = {"==": True, "is": True, "!=": False, "is not": False}
# The attribute whose flag says that a module is an `FSDPModule` (no attribute name of Python
# starts with `<`).
FSDP_MODULE = "<FSDPModule>"


def literal(test: nodes.NodeNG, taken: bool, version: Callable[[str], int], texts: Dict[int, Tuple[str, Tuple[str, ...]]]) -> Literal:
    """The literal of taking the `taken` arm of `test`; `version(name)` is how often `name`
    (a variable or an attribute chain such as `self.mesh`) was rebound before the test.
    `texts` remembers each expression's text and the names it reads, by node."""
    while isinstance(test, nodes.UnaryOp) and test.op == "not":
        test, taken = test.operand, not taken
    if isinstance(test, nodes.Compare) and len(test.ops) == 1:
        op, right = test.ops[0]
        if op in _EQUALITY and isinstance(right, nodes.Const):
            return ("eq", _text(test.left, version, texts), repr(right.value)), taken == _EQUALITY[op]
    return ("bool", _text(test, version, texts)), taken


def passes(constant: object, test: Test) -> bool:
    """Whether a constant passes `test`: its truth, or its equality with one of the test's constants."""
    return bool(constant) if test == TRUTH else constant in test


def flag(root: Root, attrs: Tuple[str, ...], value: bool, test: Test = TRUTH) -> Literal:
    """The literal of `root.attrs` passing `test` (having truth value `value` for TRUTH)."""
    return ("flag", root, attrs, test), value


def fsdp_module(root: Root, attrs: Tuple[str, ...], value: bool = True) -> Literal:
    """The literal of the module at `root.attrs` being an `FSDPModule` (`value`) or not."""
    return flag(root, attrs + (FSDP_MODULE,), value)


def same(a: Tuple[Root, Tuple[str, ...]], b: Tuple[Root, Tuple[str, ...]], value: bool) -> Literal:
    """The literal of the attributes `a` and `b` ((root, attribute path) each) being one object."""
    first, second = sorted((a, b))
    return ("same", first, second), value


def chosen(scope: str, expr: nodes.NodeNG, option: Tuple[object, ...], version: Callable[[str], int], texts: Dict[int, Tuple[str, Tuple[str, ...]]]) -> Optional[Literal]:
    """The literal that `expr`, a name (or attribute chain) of the walk of `scope` bound to one of
    several objects, is `option` (root, attribute path, and class where two share those) on a
    run: every use of the same binding takes the same one, so a test of it (`tied =
    weights_are_tied(embed, head)`) and a call on it (`fully_shard(head)`) are about one object
    on each run. Two options of one binding exclude each other, as equality with two constants
    does; no message words it (`decidable`). None for other expressions."""
    if name_chain(expr) is None:
        return None
    return ("eq", f"{_CHOICE}{scope}:{_text(expr, version, texts)}", repr(option)), True


def choices(guard: Path) -> Path:
    """The choices (`chosen`) of a guard: they alone say which option of a value a run gives,
    where other guards only hold outcomes every run that gives the option takes."""
    return frozenset(literal for literal in guard if literal[0][0] == "eq" and str(literal[0][1]).startswith(_CHOICE))


def dead(run: Path) -> Literal:
    """The literal that no run taking all the outcomes of `run` gets here (one outcome: its opposite)."""
    if len(run) == 1:
        atom, taken = next(iter(run))
        return atom, not taken
    return (_DEAD, run), True


def within(path: Path, allowed: AbstractSet[Literal]) -> bool:
    """Whether every outcome of `path` is one of `allowed`: a dead literal, where every outcome
    of the run it excludes is."""
    return all(literal in allowed or literal[0][0] == _DEAD and within(literal[0][1], allowed) for literal in path)  # type: ignore[arg-type]


def reads_any(test: nodes.NodeNG, chains: AbstractSet[str]) -> bool:
    """Whether a test reads one of `chains` (names and attribute chains) or what lies inside one
    (`batch.ids`, of `batch`)."""
    for read in _chains(test):
        parts = read.split(".")
        if any(".".join(parts[:n]) in chains for n in range(1, len(parts) + 1)):
            return True
    return False


def about_objects(literal: Literal) -> bool:
    """Whether a literal is about objects (a flag, an identity, or a dead literal of those): one
    that a caller or a callee can read, with the roots mapped."""
    kind = literal[0][0]
    if kind == _DEAD:
        return all(about_objects(inner) for inner in literal[0][1])  # type: ignore[union-attr]
    return kind in ("flag", "same")


def roots(literals: Iterable[Literal]) -> Iterator[Root]:
    """The roots of the objects that literals about objects (`about_objects`) name, those of a
    dead literal's outcomes included."""
    for atom, _ in literals:
        if atom[0] == _DEAD:
            yield from roots(atom[1])  # type: ignore[arg-type]
        elif atom[0] == "flag":
            yield atom[1]  # type: ignore[misc]
        elif atom[0] == "same":
            yield atom[1][0]  # type: ignore[index]
            yield atom[2][0]  # type: ignore[index]


@functools.lru_cache(maxsize=1 << 12)
def flag_literals(path: Path) -> Path:
    """The flag literals of a path (asked for every event a summary maps back and every pair of
    paths compared, and most paths have none: remembered, as a path's hash is; the path itself
    or `EMPTY` where it is all or none of them, so that the memo holds no copies). The memo's keys
    keep their paths alive: 4,096 of them hit 98.7% of Automodel's 1.85 million questions, and
    16,384 held 6 MiB more at its peak."""
    found = frozenset(literal for literal in path if literal[0][0] == "flag")
    return path if len(found) == len(path) else found or EMPTY


def flags(path: Path) -> Iterator[Tuple[Root, Tuple[str, ...], Test, bool]]:
    """The flag literals of a path, as (root, attribute path, test, value)."""
    for atom, value in flag_literals(path):
        yield atom[1], atom[2], atom[3], value  # type: ignore[misc]


def flag_value(path: Path, root: Root, attrs: Tuple[str, ...], test: Test = TRUTH) -> Optional[bool]:
    """Whether `root.attrs` passes `test` on every run through `path` (True), on none (False),
    where the tests on that path (here, in a caller, or in a callee) decide it; None where none do."""
    return implied(flag_literals(path), root, attrs, test)


def implied(literals: Iterable[Literal], root: Root, attrs: Tuple[str, ...], test: Test) -> Optional[bool]:
    """What flag literals say of `root.attrs` passing `test`: the outcome of the same test, or
    one that decides it (`== 1` true: truthy, and not `== 2`; falsy: not `== 1`)."""
    for (_, other_root, other_attrs, other), value in literals:  # type: ignore[misc]
        if other_root != root or other_attrs != attrs:
            continue
        if other == test:
            return value
        if other and value:  # it equals a known constant: that constant decides every test
            return bool(other[0]) if test == TRUTH else False
        if test and other == TRUTH and bool(test[0]) != value:
            return False
    return None


def compatible(a: Path, b: Path) -> bool:
    """Whether one run can take every branch outcome of both paths (and none of the runs a dead
    literal of either excludes)."""
    if not a or not b:
        return True
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    large_flags: Optional[Path] = None
    for atom, taken in small:
        if (atom, not taken) in large:
            return False
        if atom[0] == "eq" and taken:
            for other, other_taken in large:
                if other_taken and other[0] == "eq" and other[1] == atom[1] and other[2] != atom[2]:
                    return False
        elif atom[0] == "flag":
            if large_flags is None:
                large_flags = flag_literals(large)
            if large_flags and implied(large_flags, atom[1], atom[2], atom[3]) is (not taken):  # type: ignore[arg-type]
                return False
    for path in (a, b):
        for atom, _ in path:
            if atom[0] == _DEAD and all(literal in a or literal in b for literal in atom[1]):  # type: ignore[union-attr]
                return False
    return True


def holds_on(literal: Literal, path: Path) -> bool:
    """Whether every run through `path` takes `literal`: none can take the path and the
    literal's opposite (for a dead literal, every outcome of the run it excludes: the arms
    before a `raise` that `path` leaves)."""
    atom, taken = literal
    opposite = atom[1] if atom[0] == _DEAD and taken else frozenset([(atom, not taken)])
    return not compatible(path, opposite)  # type: ignore[arg-type]


def excluding(joined: Path, arms: Iterable[Path], dead: Iterable[Path]) -> Path:
    """`joined` (what the arms share), with a dead literal for each path of a run that left
    the function (`dead`) which every arm contradicts but `joined` does not."""
    arms = list(arms)
    found = [
        run for run in dict.fromkeys(dead)
        if ((_DEAD, run), True) not in joined  # excluded at an earlier join: `compatible` would say no
        and compatible(joined, run) and not any(compatible(arm, run) for arm in arms)
    ]
    return joined | {((_DEAD, run), True) for run in found} if found else joined


_DEAD = "dead"


def join(a: Optional[Path], b: Optional[Path]) -> Path:
    """The path after two arms meet: the outcomes both arms share (None: an arm that never falls
    through, e.g. it returns, contributes nothing)."""
    if a is None:
        return b if b is not None else EMPTY
    if b is None:
        return a
    return a & b


def _text(expr: nodes.NodeNG, version: Callable[[str], int], texts: Dict[int, Tuple[str, Tuple[str, ...]]]) -> str:
    known = texts.get(id(expr))
    if known is None:
        known = texts[id(expr)] = (expr.as_string(), tuple(sorted(set(_chains(expr)))))
    text, names = known
    return text + "|" + ",".join(f"{name}@{version(name)}" for name in names)


def _chains(expr: nodes.NodeNG):
    """The variables and attribute chains a test reads (`self.mesh`, `args`)."""
    if isinstance(expr, nodes.Name):
        yield expr.name
        return
    if isinstance(expr, nodes.Attribute):
        chain = attribute_chain(expr)
        if chain is not None:
            yield chain
            return
    for child in expr.get_children():
        yield from _chains(child)


def none_test(test: nodes.NodeNG) -> Optional[Tuple[nodes.NodeNG, bool]]:
    """`x is None` -> (x, True), `x is not None` -> (x, False); other tests: None."""
    if isinstance(test, nodes.Compare) and len(test.ops) == 1 and test.ops[0][0] in ("is", "is not"):
        right = test.ops[0][1]
        if isinstance(right, nodes.Const) and right.value is None:
            return test.left, test.ops[0][0] == "is"
    return None


def name_chain(expr: nodes.NodeNG, keys: bool = False) -> Optional[Tuple[str, ...]]:
    """`self.a.b` -> ("self", "a", "b") when it is a plain chain of names, else None. With `keys`,
    also through entries under constant string keys: `conf["data"]` -> ("conf", "data"), as
    `conf.data` (a configuration read from YAML is a dict, one from OmegaConf either, and the same
    entry whichever way it is read)."""
    parts = []
    while isinstance(expr, (nodes.Attribute, nodes.AssignAttr)) or keys and isinstance(expr, nodes.Subscript):
        if isinstance(expr, nodes.Subscript):
            if not isinstance(expr.slice, nodes.Const) or not isinstance(expr.slice.value, str) or expr.slice.value[:1] == "*":
                return None
            parts.append(expr.slice.value)
            expr = expr.value
        else:
            parts.append(expr.attrname)
            expr = expr.expr
    if not isinstance(expr, (nodes.Name, nodes.AssignName)):
        return None
    parts.append(expr.name)
    return tuple(reversed(parts))


def attribute_chain(expr: nodes.NodeNG) -> Optional[str]:
    """`self.a.b` as text when it is a plain chain of names, else None."""
    chain = name_chain(expr)
    return ".".join(chain) if chain is not None else None


def note(text: str) -> Literal:
    """An outcome another function took, known only by how a message words it (`path` is None,
    in `load`): the runs of a callee or a caller that left an object short of initialised
    (`Flow.materialised`), which no test of this walk decides."""
    return ("note", text), True


def describe(literal: Literal) -> Optional[str]:
    """How a message words an outcome (`` `cfg.ckpt` is false ``); None for outcomes no one wrote
    (a loop's later pass, one of the values a call ran on, a run that left the function)."""
    atom, taken = literal
    kind = atom[0]
    if kind == "bool":
        return f"`{_source(atom[1])}` is {'true' if taken else 'false'}"  # type: ignore[arg-type]
    if kind == "eq" and not str(atom[1]).startswith(_ALTERNATIVE):
        subject, constant = _source(atom[1]), atom[2]  # type: ignore[arg-type]
        if constant == "None":
            return f"`{subject} is {'' if taken else 'not '}None`"
        return f"`{subject} {'==' if taken else '!='} {constant}`"
    if kind == "flag":
        text = Obj(atom[1], atom[2]).display  # type: ignore[arg-type]
        test = atom[3]
        if test == TRUTH:
            return f"`{text}` is {'true' if taken else 'false'}"
        return f"`{text} {'==' if taken else '!='} {test[0]!r}`"  # type: ignore[index]
    if kind == "note":
        return str(atom[1]) if taken else f"not ({atom[1]})"
    return None


def describe_run(run: Iterable[Literal]) -> str:
    """The outcomes of a run, as a message words them (those no one wrote left out)."""
    return " and ".join(dict.fromkeys(text for text in map(describe, sorted(run, key=repr)) if text))


def decidable(literal: Literal) -> bool:
    """Whether a run can be told apart by this outcome: a test the code wrote (or another
    function's, as a note), not a loop's later pass, one of the values a call ran on (`either@`),
    nor a run that left the function."""
    kind = literal[0][0]
    return kind in ("bool", "flag", "note") or kind == "eq" and not str(literal[0][1]).startswith(_ALTERNATIVE)


def uncovered(
    start: Path, conjunctions: Iterable[Path], implied: Callable[[Literal], Path] = lambda literal: EMPTY, budget: int = 256,
) -> Optional[Path]:
    """A run through `start` that takes none of `conjunctions` whole (a must-fact fails on it):
    the outcomes it takes beyond `start`, each the opposite of one of a conjunction's that the
    code wrote (`decidable`). Taking one takes what it fixes too (`implied`: the flags a test's
    own outcome fixes), so that no run takes `if a.x:`'s own outcome and the opposite of the
    flag it fixes. None where every run through `start` takes one whole, or where no run is
    found within `budget` steps of the search (so an unknown stays silent)."""
    ordered = sorted(set(conjunctions), key=len)
    shared: Dict[Literal, int] = {}  # how many conjunctions each outcome is in: a run that avoids
    for conjunction in ordered:      # several by one outcome is tried first, and worded shortest
        for literal in conjunction:
            shared[literal] = shared.get(literal, 0) + 1
    return _search(ordered, shared, implied, [budget], start, EMPTY, 0)


def _search(
    ordered: List[Path], shared: Dict[Literal, int], implied: Callable[[Literal], Path], left: List[int], taken: Path, chosen: Path, index: int,
) -> Optional[Path]:
    """`uncovered`'s depth-first search from the conjunction at `index`. A function of the module,
    not one nested in `uncovered`: a nested function that calls itself is a reference cycle (it
    and its closure), which kept each walk that asked (`implied` is a walk's bound method), and
    everything the walk held, alive until a cyclic collection, and a run has none (`lint`)."""
    if index == len(ordered):
        return chosen
    left[0] -= 1
    if left[0] < 0:
        return None
    conjunction = ordered[index]
    if not compatible(taken, conjunction):
        return _search(ordered, shared, implied, left, taken, chosen, index + 1)  # this run already avoids it
    for literal in sorted(conjunction - taken, key=lambda literal: (-shared[literal], *_by_own_first(literal))):
        if not decidable(literal):
            continue
        opposite = (literal[0], not literal[1])
        step = frozenset([opposite]) | implied(opposite)
        if compatible(taken, step):
            found = _search(ordered, shared, implied, left, taken | step, chosen | {opposite}, index + 1)
            if found is not None:
                return found
    return None


_ALTERNATIVE = "either@"  # the subject of the literals of `Flow._alternatives`, and of `chosen`
_CHOICE = _ALTERNATIVE + "value:"


def _by_own_first(literal: Literal) -> Tuple[bool, str]:
    """This walk's tests before other functions' notes: a run is worded by the code at hand."""
    return literal[0][0] == "note", repr(literal)


def _source(text: str) -> str:
    """A test's text without the versions of the names it reads (`_text`)."""
    return text.rpartition("|")[0]
