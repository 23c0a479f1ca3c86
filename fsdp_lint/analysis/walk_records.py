"""The walks of the fact pass, each with what a listener (the rule pass's) heard during it and what
it took from the rest of the analysis, so that the rule pass can take a walk's findings instead of
walking that function in that context again.

A walk is a function of its scope, its calling context and its origins, and of what it asks the
project while it runs: the context `widen` gives each call, the summary memoised for it, and a few
answers that other walks build up (a module's globals, a scope's recorded events, the module a
deferred result came from). The rule pass walks after the facts are complete; a fact walk heard the
same as that walk would wherever each of those answers is still the one the fact walk got, which
`Project.replayable` checks, in the order the walk asked them. The first walks of the fact pass
are often not the final ones (a later round enters more modules), so every walk is recorded and a
walk dropped by `Project.enter` drops its record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from fsdp_lint.analysis.context import Context, Origin

if TYPE_CHECKING:
    from fsdp_lint.analysis.flow import CallListener

# What a walk asked, in order, each as four items (flat in `WalkRecord.steps`, which a large tree
# holds hundreds of thousands of): "widen", the function, the hash of the call's context where
# `widen` narrowed it (None where the context it got is the call's own), the context it got;
# "summary", the function, the context, the summary it got; and answers read from other walks'
# work: "globals", a module, None, the paths its top level left sharded; "events", a scope key,
# None, its events; "origin", a root, None, the module of the deferred call it came from;
# "imported", None, None, what rules read of other modules (`Project.imported`).
STEP = 4
# The origins of a walk that received nothing sharded (most): one for all the records. Nothing
# writes into a walk's origins.
NO_ORIGINS: Dict[str, Origin] = {}


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class WalkRecord:
    """One walk of the fact pass: the listener that heard it, the origins it ran with, and what it
    asked the project."""

    __slots__ = ("listener", "origins", "steps")

    def __init__(self, listener: "CallListener", origins: Dict[str, Origin]):
        self.listener = listener
        self.origins = origins
        self.steps: Sequence[object] = []  # `STEP` items a step; a tuple once the walk ended


class WalkRecords:
    """The records of the fact pass's walks, by (scope key, context), and the walks under way.

    `listen` makes a fresh listener for each walk (the engine's, with the rules); None records
    nothing. A walk the project starts on another's behalf (a class's lifecycle applied to make
    a method's entry context) is under way with no record: what it asks is nobody's."""

    def __init__(self) -> None:
        self.listen: Optional[Callable[[], "CallListener"]] = None
        self._kept: Dict[Tuple[str, Context], WalkRecord] = {}
        self._under_way: List[Optional[WalkRecord]] = []

    def start(self, origins: Optional[Dict[str, Origin]]) -> Optional[WalkRecord]:
        """A walk begins: its record (None when nothing is recorded)."""
        record = WalkRecord(self.listen(), origins or NO_ORIGINS) if self.listen is not None else None
        self._under_way.append(record)
        return record

    def start_unrecorded(self) -> None:
        self._under_way.append(None)

    def end(self) -> None:
        record = self._under_way.pop()
        if record is not None:
            record.steps = tuple(record.steps)  # no room left to grow: a large tree keeps thousands

    def keep(self, key: str, context: Context, record: Optional[WalkRecord]) -> None:
        if record is not None:
            self._kept[(key, context)] = record

    def keep_only(self, walks: Iterable[Tuple[str, Context]]) -> None:
        """Forget every record but those of `walks` (the walks `Project.enter` keeps)."""
        kept = {walk: self._kept[walk] for walk in walks if walk in self._kept}
        self._kept = kept

    def take(self, key: str, context: Context) -> Optional[WalkRecord]:
        """The record of a walk, forgotten here: the rule pass takes each walk once."""
        return self._kept.pop((key, context), None)

    def note(self, kind: str, asked: object, extra: object, answer: object) -> None:
        """What the walk under way asked (see `STEP`)."""
        if self._under_way and self._under_way[-1] is not None:
            self._under_way[-1].steps.extend((kind, asked, extra, answer))
