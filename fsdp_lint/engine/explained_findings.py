"""One mistake, one finding: a finding at a call that the called code's own finding explains.

A call of the tree's code is walked again in the call's context, so one object used in the wrong
state can be found at two places: where the call hands it over (`wrapper(x)`, whose forward runs
the model the wrapper holds) and where the called code uses it (`self.model(x)` in the wrapper's
`forward`). The second is where the mistake happens, and its message says how the object got
there (each call that passed it on); the first is no second finding. So a finding at a call is
left out where the walk that call made, or a walk below it, has a finding of the same rule about
the same object: the subject of the call's finding, followed down through the objects each call
hands over (`CallListener.on_callee`), is a name the inner finding knows its subject by, or, for a
rule whose finding is about all its subject holds (`Rule.SUBJECT_HOLDS_PARTS`: uninitialised memory
of every parameter under it), that of an object its subject lies in (`self.inner` in the `forward`
of the module the call runs: its memory is the module's). Where nothing below
reports that object (the callee runs it in code the analysis cannot see, or not at all as far as
it can), the call's finding stands, and a finding below about another object leaves it be.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, List, Set, Tuple

from astroid import nodes

from fsdp_lint.analysis.context import Context
from fsdp_lint.analysis.flow import Handed
from fsdp_lint.analysis.values import Obj, Root

# One walk of the rule pass: the scope's key and the calling context.
WalkKey = Tuple[str, Context]
Name = Tuple[Root, Tuple[str, ...]]  # an object's path, (root, attributes), without its class


class CallTree:
    """The calls each walk of the rule pass made into the tree's code, with the objects each
    handed over, and each walk's findings about an object, by rule and the object's names."""

    def __init__(self) -> None:
        self._calls: Dict[WalkKey, List[Tuple[nodes.NodeNG, WalkKey, Handed]]] = {}
        self._found: Dict[WalkKey, List[Tuple[str, FrozenSet[Name]]]] = {}

    def called(self, walk: WalkKey, call: nodes.NodeNG, callee: WalkKey, handed: Handed) -> None:
        if handed:  # a call that hands over nothing holding shards carries no finding's subject down
            self._calls.setdefault(walk, []).append((call, callee, handed))

    def found(self, walk: WalkKey, code: str, names: Tuple[Obj, ...]) -> None:
        if names:
            self._found.setdefault(walk, []).append((code, frozenset(_name(o) for o in names)))

    def explained(self, walk: WalkKey, node: nodes.NodeNG, code: str, names: Tuple[Obj, ...], parts: bool = False) -> bool:
        """Whether a finding of rule `code` at `node` in `walk`, about the object `names` name, is
        explained by one about that object in the code `node` calls: in the walk it made, or in
        a walk below that one the object was handed on to. With `parts` (the rule's finding is
        about all the object holds: `Rule.SUBJECT_HOLDS_PARTS`), one about a part of it does too."""
        wanted = frozenset(_name(o) for o in names)
        pending = [(callee, _handed_down(wanted, handed)) for call, callee, handed in self._calls.get(walk, ()) if call is node]
        seen: Set[Tuple[WalkKey, FrozenSet[Name]]] = set()
        while pending:
            current, inner = pending.pop()
            if not inner or (current, inner) in seen:
                continue
            seen.add((current, inner))
            if any(found == code and (_within(subject, inner) if parts else inner & subject) for found, subject in self._found.get(current, ())):
                return True
            pending.extend((callee, _handed_down(inner, handed)) for _, callee, handed in self._calls.get(current, ()))
        return False


def _name(obj: Obj) -> Name:
    return obj.root, obj.attrs


def _within(subject: FrozenSet[Name], names: FrozenSet[Name]) -> bool:
    """Whether an inner finding's subject is one of `names` or lies in one (`self.inner`, run by
    the `forward` of the module whose call a finding reports)."""
    return any(
        root == outer_root and attrs[: len(outer_attrs)] == outer_attrs
        for root, attrs in subject for outer_root, outer_attrs in names
    )


def _handed_down(names: FrozenSet[Name], handed: Handed) -> FrozenSet[Name]:
    """The names the callee knows the objects `names` name by: each that is, or lies in, an
    object the call handed it, by the root the callee binds that object to."""
    found = set()
    for root, attrs in names:
        for parameter, obj in handed:
            if obj.root == root and attrs[: len(obj.attrs)] == obj.attrs:
                found.add((parameter, attrs[len(obj.attrs):]))
    return frozenset(found)
