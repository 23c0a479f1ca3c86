"""Booleans the walk describes instead of computing them (`values.Truth`): which branch outcomes
about objects make them true or false, so that a test of one takes arms that say so.

`a.weight is b.weight` is true where the two attributes are one object (an identity literal,
`paths.same`); a helper that returns it (`_module_weights_are_tied(embed, head)`) returns the
same description with its parameters' objects mapped to the caller's, and the caller's
`if not tied:` arm then excludes the tie (`arm_literals`): no run that ties the two gets there.
A description holds sufficient conditions, each a conjunction of literals; they are kept few
(`MAX_ALTERNATIVES`), and dropping some only leaves a test's arms knowing less.
"""

from __future__ import annotations

from typing import Callable, Iterable, List, Optional, Sequence, Tuple

from fsdp_lint.analysis import paths
from fsdp_lint.analysis.paths import EMPTY, Literal, Path
from fsdp_lint.analysis.values import UNKNOWN, Constant, Either, Truth, Value, guarded_options, truth

MAX_ALTERNATIVES = 32
Alternatives = Tuple[Path, ...]
NOTHING = Truth((), ())


def of(value: Value) -> Optional[Truth]:
    """A value as a description: itself, or a constant `True`/`False` (true, or false, on every
    run); None for values that are no boolean the walk knows of."""
    if isinstance(value, Truth):
        return value
    if type(value) is Constant and isinstance(value.value, bool):
        return Truth((EMPTY,), ()) if value.value else Truth((), (EMPTY,))
    return None


def of_options(value: Value, test: paths.Test) -> Optional[Truth]:
    """Whether a value bound on several arms (`loaded = True` on one, `False` on the other: each
    option on the runs of the arm that bound it) passes `test` (its truth, or equality with one
    of the test's constants), described by those runs: a later `if not loaded:` then takes the
    arm that bound False. None where an option holds on every run or its outcome is not known."""
    if not isinstance(value, Either) or not value.guards or not all(value.guards):
        return None
    when: Tuple[List[Path], List[Path]] = ([], [])
    for option, guard in guarded_options(value):
        passes = paths.passes(option.value, test) if type(option) is Constant else truth(option) if test == paths.TRUTH else None
        if passes is None:
            return None
        when[0 if passes else 1].append(guard)
    return Truth(_union([when[0]]), _union([when[1]]))


def of_each(value: Value) -> Optional[Truth]:
    """A value that is one of several booleans on the runs that give each (`_is_sharded(m)` of
    each `m` of a list: True where `m` is an `FSDPModule`, False where not), described by the
    runs that exclude the others: true where every option that is not always true is ruled out
    (a run contradicts an outcome its guard holds, which every run giving it takes), false
    likewise. A guard is a necessary condition, not a sufficient one: where the value stands for
    each item of a container, a run that takes one option's guard may still give another item
    the other option, but a run that contradicts an option's guard gives it to none. A value
    that is no `Either` as `of` describes it."""
    if not isinstance(value, Either):
        return of(value)
    described = [(of(option), guard) for option, guard in guarded_options(value)]

    def excluded(outcome: bool) -> Alternatives:
        groups = [
            tuple(frozenset([(atom, not taken)]) for atom, taken in guard if paths.decidable((atom, taken)))
            for truth_, guard in described
            if truth_ is None or EMPTY not in (truth_.when_true if outcome else truth_.when_false)
        ]
        return _product(groups) if all(groups) else ()

    return Truth(excluded(True), excluded(False))


def as_value(truth: Truth) -> Value:
    """A description as the value a walk holds: a constant where one of its conditions holds on
    every run, nothing known where it has none."""
    if EMPTY in truth.when_true:
        return Constant(True)
    if EMPTY in truth.when_false:
        return Constant(False)
    return truth if truth.when_true or truth.when_false else UNKNOWN


def negated(truth: Truth) -> Truth:
    return Truth(truth.when_false, truth.when_true)


def conjunction(operands: Sequence[Optional[Truth]]) -> Truth:
    """`a and b and ...`: true where each operand is, false where one is. An operand not
    described (None) adds no way to be false, and leaves the ways to be true unknown."""
    known = [t for t in operands if t is not None]
    every = _product([t.when_true for t in known]) if len(known) == len(operands) else ()
    return Truth(every, _union([t.when_false for t in known]))


def disjunction(operands: Sequence[Optional[Truth]]) -> Truth:
    """`a or b or ...`: true where one operand is, false where each is. An operand not described
    (None) adds no way to be true, and leaves the ways to be false unknown."""
    known = [t for t in operands if t is not None]
    every = _product([t.when_false for t in known]) if len(known) == len(operands) else ()
    return Truth(_union([t.when_true for t in known]), every)


def conjoined(truth: Truth, path: Path) -> Truth:
    """The description on the runs that take `path` too (a value returned there)."""
    return Truth(
        tuple(_reduced(c | path) for c in truth.when_true if paths.compatible(c, path)),
        tuple(_reduced(c | path) for c in truth.when_false if paths.compatible(c, path)),
    )


def _reduced(condition: Path) -> Path:
    """A conjunction without the flags its other flags decide (`type == "sharded"` makes
    `type == "full"` false): the same runs, so that the opposite of what is left (an arm's
    literal, `arm_literals`) is one outcome a path can contradict."""
    flags = paths.flag_literals(condition)
    if len(flags) < 2:
        return condition
    implied = {
        literal for literal in flags
        if paths.implied(flags - {literal}, literal[0][1], literal[0][2], literal[0][3]) is literal[1]  # type: ignore[arg-type]
    }
    return condition - implied if implied and implied != flags else condition


def returned(values: Sequence[Value], at: Sequence[Optional[Alternatives]]) -> Truth:
    """What a function returns, described, from the value each `return` gives and the outcomes
    about objects on the way to it (`at`: the conjunctions each of which takes a run there; None
    where the way is not described so, and that return adds no condition)."""
    described = [(of(value), ways) for value, ways in zip(values, at)]
    kept = [conjoined(truth, way) for truth, ways in described if truth is not None and ways is not None for way in ways]
    return Truth(_union([t.when_true for t in kept]), _union([t.when_false for t in kept]))


def whichever_of(value: Value) -> Value:
    """A value that is one of several booleans, each described or constant (a name bound on
    several arms: `should = should and cfg.flag` under `if isinstance(cfg, A):`), as one
    description that holds whichever it is: true where a condition makes each of them true (it
    takes one of each one's conditions), false likewise. What holds of one option alone would
    need the runs that give it, which this leaves out. Other values as they are."""
    if not isinstance(value, Either):
        return value
    options = [of(option) for option in value.options]
    if None in options:
        return value

    def common(groups: Sequence[Alternatives]) -> Alternatives:
        return _union([tuple(c for c in group if all(any(d <= c for d in other) for other in groups)) for group in groups])

    return Truth(common([t.when_true for t in options]), common([t.when_false for t in options]))  # type: ignore[union-attr]


def all_of(groups: Sequence[Alternatives]) -> Alternatives:
    """Conjunctions each of which takes every group's outcome (one of its conjunctions each)."""
    return _product(groups)


def arm_literals(truth: Truth, value: bool) -> Path:
    """The literals of the runs where the described boolean is `value`: none of them takes all
    the outcomes of a condition for the other value."""
    return frozenset(paths.dead(condition) for condition in (truth.when_false if value else truth.when_true))


def mapped(truth: Truth, literal: Callable[[Literal], Alternatives]) -> Truth:
    """The description in another walk's terms, where a literal reads as any of several
    conjunctions (one for each object a parameter is there, on the runs that choose it): a
    condition holds on each way to take one of each of its literals'. A condition with a literal
    that has none there is dropped."""
    def each(alternatives: Alternatives) -> Alternatives:
        return _union([_product([literal(item) for item in condition]) for condition in alternatives])

    return Truth(each(truth.when_true), each(truth.when_false))


def _union(groups: Iterable[Alternatives]) -> Alternatives:
    found: List[Path] = []
    for group in groups:
        for condition in group:
            if condition not in found and len(found) < MAX_ALTERNATIVES:
                found.append(condition)
    return tuple(found)


def _product(groups: Sequence[Alternatives]) -> Alternatives:
    """One conjunction of each group, together; those no run takes (two choices of one name,
    an outcome and its opposite) are left out, which leaves room for the others."""
    found: Alternatives = (EMPTY,)
    for group in groups:
        found = tuple(dict.fromkeys(_reduced(a | b) for a in found for b in group if paths.compatible(a, b)))[:MAX_ALTERNATIVES]
    return found
