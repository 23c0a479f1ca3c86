"""Every node of a module, listed once in astroid's order, so that what the analysis asks of the
syntax of a module, a class or a function (its calls, its tests, the attributes it assigns) is a
filter over a list instead of a walk of the subtree.

The same scopes are asked again and again: each round of the facts, each calling context of a
function, each method a class's facts read. astroid's `nodes_of_class` walks the subtree through
one generator per node every time it is asked, the largest own-time item of a cold run
(torchtitan: 2 M generator frames, a tenth of the run). Listing each module once costs one such
walk; every later question about a scope of it reads the scope's stretch of the list.

Only modules and the scopes inside them (functions, lambdas, classes) have a stretch: a question
about any other node (an `if` statement's test) walks it as astroid does, being small.
"""

from __future__ import annotations

import weakref
from typing import Dict, Iterator, List, Optional, Tuple, Type, Union

from astroid import nodes

_SCOPES = (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)

Classes = Union[Type[nodes.NodeNG], Tuple[Type[nodes.NodeNG], ...]]


class _Listing:
    """A module's nodes in preorder, and where each scope's subtree ends in that order (a
    scope's subtree starts at the scope itself)."""

    __slots__ = ("order", "spans")

    def __init__(self, module: nodes.Module):
        order: List[nodes.NodeNG] = []
        spans: Dict[int, Tuple[int, int]] = {}
        pending: List[Tuple[nodes.NodeNG, int]] = [(module, -1)]
        while pending:
            node, start = pending.pop()
            if start >= 0:  # the scope's subtree is listed
                spans[id(node)] = (start, len(order))
                continue
            if isinstance(node, _SCOPES):
                pending.append((node, len(order)))
            order.append(node)
            children = list(node.get_children())
            children.reverse()
            pending.extend((child, -1) for child in children)
        spans[id(module)] = (0, len(order))
        self.order = order
        self.spans = spans


_LISTINGS: "weakref.WeakKeyDictionary[nodes.Module, _Listing]" = weakref.WeakKeyDictionary()


def nodes_within(root: nodes.NodeNG, klass: Classes, skip: Optional[Classes] = None) -> Iterator[nodes.NodeNG]:
    """`root.nodes_of_class(klass, skip_klass=skip)`, in the same order: `root` and the nodes
    below it that are instances of `klass`, not looking inside a node below `root` that is an
    instance of `skip` (a scope class: functions, lambdas, classes)."""
    if skip is not None and not isinstance(skip, tuple):
        skip = (skip,)
    stretch = _stretch(root) if skip is None or all(issubclass(cls, _SCOPES) for cls in skip) else None
    if stretch is None:
        yield from root.nodes_of_class(klass, skip_klass=skip)
        return
    order, spans, start, end = stretch
    if skip is None:
        for index in range(start, end):
            if isinstance(order[index], klass):
                yield order[index]
        return
    if isinstance(root, klass):
        yield root
    index = start + 1
    while index < end:
        node = order[index]
        if isinstance(node, skip):
            index = spans[id(node)][1]
            continue
        if isinstance(node, klass):
            yield node
        index += 1


def _stretch(root: nodes.NodeNG) -> Optional[Tuple[List[nodes.NodeNG], Dict[int, Tuple[int, int]], int, int]]:
    if not isinstance(root, (nodes.Module, *_SCOPES)):
        return None
    module = root.root()
    if not isinstance(module, nodes.Module):
        return None
    listing = _LISTINGS.get(module)
    if listing is None:
        listing = _LISTINGS[module] = _Listing(module)
    span = listing.spans.get(id(root))
    if span is None:
        return None
    return listing.order, listing.spans, span[0], span[1]
