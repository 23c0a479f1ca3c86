"""Every node of a module, listed once in astroid's order, so that what the analysis asks of the
syntax of a module, a class or a function (its calls, its tests, the attributes it assigns) is a
lookup instead of a walk of the subtree.

The same scopes are asked again and again: each round of the facts, each calling context of a
function, each method a class's facts read. astroid's `nodes_of_class` walks the subtree through
one generator per node every time it is asked, the largest own-time item of a cold run
(torchtitan: 2 M generator frames, a tenth of the run). Listing each module once costs one such
walk; the positions of each node class in the list are kept too (4 bytes a node), so a question
costs what it finds, not the size of the scope: the module-wide ones (every class of a module,
every call) are asked of every module in every round.

Only modules and the scopes inside them (functions, lambdas, classes) have a stretch of the
list: a question about any other node (an `if` statement's test) walks it as astroid does,
being small.
"""

from __future__ import annotations

import heapq
import weakref
from array import array
from bisect import bisect_left
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Type, Union

from astroid import nodes

_SCOPES = (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)

Classes = Union[Type[nodes.NodeNG], Tuple[Type[nodes.NodeNG], ...]]


class _Listing:
    """A module's nodes in preorder, where each scope's subtree ends in that order (a scope's
    subtree starts at the scope itself), and the positions of the nodes of each class."""

    __slots__ = ("order", "spans", "positions", "_of_classes")

    def __init__(self, module: nodes.Module):
        order: List[nodes.NodeNG] = []
        spans: Dict[int, Tuple[int, int]] = {}
        positions: Dict[type, array] = {}
        pending: List[Tuple[nodes.NodeNG, int]] = [(module, -1)]
        while pending:
            node, start = pending.pop()
            if start >= 0:  # the scope's subtree is listed
                spans[id(node)] = (start, len(order))
                continue
            if isinstance(node, _SCOPES):
                pending.append((node, len(order)))
            kind = type(node)
            found = positions.get(kind)
            if found is None:
                found = positions[kind] = array("i")
            found.append(len(order))
            order.append(node)
            children = list(node.get_children())
            children.reverse()
            pending.extend((child, -1) for child in children)
        spans[id(module)] = (0, len(order))
        self.order = order
        self.spans = spans
        self.positions = positions
        self._of_classes: Dict[Classes, Tuple[array, ...]] = {}

    def of_classes(self, klass: Classes) -> Tuple[array, ...]:
        """The position lists of the node classes of this module that are `klass`."""
        known = self._of_classes.get(klass)
        if known is None:
            known = self._of_classes[klass] = tuple(found for kind, found in self.positions.items() if issubclass(kind, klass))
        return known

    def between(self, klass: Classes, start: int, end: int) -> Sequence[int]:
        """The positions in [start, end) of the nodes that are `klass`, in order."""
        parts = [found[bisect_left(found, start):bisect_left(found, end)] for found in self.of_classes(klass)]
        parts = [part for part in parts if part]
        if len(parts) == 1:
            return parts[0]
        return list(heapq.merge(*parts))


_LISTINGS: "weakref.WeakKeyDictionary[nodes.Module, _Listing]" = weakref.WeakKeyDictionary()


def nodes_within(root: nodes.NodeNG, klass: Classes, skip: Optional[Classes] = None) -> Iterator[nodes.NodeNG]:
    """`root.nodes_of_class(klass, skip_klass=skip)`, in the same order: `root` and the nodes
    below it that are instances of `klass`, not looking inside a node below `root` that is an
    instance of `skip` (a scope class: functions, lambdas, classes)."""
    if skip is not None and not isinstance(skip, tuple):
        skip = (skip,)
    found = _stretch(root) if skip is None or all(issubclass(cls, _SCOPES) for cls in skip) else None
    if found is None:
        yield from root.nodes_of_class(klass, skip_klass=skip)
        return
    listing, start, end = found
    order = listing.order
    if skip is None:
        for position in listing.between(klass, start, end):
            yield order[position]
        return
    skipped = [listing.spans[id(order[position])] for position in listing.between(skip, start + 1, end)]
    index = 0  # the skipped stretches start in order: each candidate is checked against the one it may be in
    for position in listing.between(klass, start, end):
        while index < len(skipped) and skipped[index][1] <= position:
            index += 1
        if position != start and index < len(skipped) and skipped[index][0] <= position:
            continue
        yield order[position]


def listed(module: nodes.Module) -> Sequence[nodes.NodeNG]:
    """Every node of `module`, in astroid's order."""
    listing = _LISTINGS.get(module)
    if listing is None:
        listing = _LISTINGS[module] = _Listing(module)
    return listing.order


def _stretch(root: nodes.NodeNG) -> Optional[Tuple[_Listing, int, int]]:
    if not isinstance(root, (nodes.Module, *_SCOPES)):
        return None
    module = root.root()
    if not isinstance(module, nodes.Module):
        return None
    listed(module)
    listing = _LISTINGS[module]
    span = listing.spans.get(id(root))
    if span is None:
        return None
    return listing, span[0], span[1]
