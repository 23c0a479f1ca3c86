"""One mistake, one finding: a finding at a call that the called code's own finding explains.

A call of the tree's code is walked again in the call's context, so one object used in the wrong
state can be found at two places: where the call hands it over (`wrapper(x)`, whose forward runs
the model the wrapper holds) and where the called code uses it (`self.model(x)` in the wrapper's
`forward`). The second is where the mistake happens, and its message says how the object got
there (each call that passed it on, the first one among them); the first is no second finding.
So a finding at a call is left out where the walk that call made, or one below it, has a finding
of the same rule about an object it received (`Flow.received`). Where nothing below reports it
(the callee runs the object in code the analysis cannot see, or not at all as far as it can),
the call's own finding stands.
"""

from __future__ import annotations

from typing import Dict, List, Set, Tuple

from astroid import nodes

from fsdp_lint.analysis.context import Context

# One walk of the rule pass: the scope's key and the calling context.
WalkKey = Tuple[str, Context]


class CallTree:
    """The calls each walk of the rule pass made into the tree's code, and the rules that found
    something, in each walk, about an object the walk received."""

    def __init__(self) -> None:
        self._calls: Dict[WalkKey, List[Tuple[nodes.NodeNG, WalkKey]]] = {}
        self._received: Dict[WalkKey, Set[str]] = {}

    def called(self, walk: WalkKey, call: nodes.NodeNG, callee: WalkKey) -> None:
        self._calls.setdefault(walk, []).append((call, callee))

    def found_received(self, walk: WalkKey, code: str) -> None:
        self._received.setdefault(walk, set()).add(code)

    def explained(self, walk: WalkKey, node: nodes.NodeNG, code: str) -> bool:
        """Whether a finding of rule `code` at `node` in `walk` is explained by one in the code
        that `node` calls: in the walk it made, or in a walk below that one."""
        pending = [callee for call, callee in self._calls.get(walk, ()) if call is node]
        seen: Set[WalkKey] = set()
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            if code in self._received.get(current, ()):
                return True
            pending.extend(callee for _, callee in self._calls.get(current, ()))
        return False
