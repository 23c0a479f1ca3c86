"""Functions as values: a `def` nested in a function reads the variables of the function around
it (its free variables), and those are part of what it does when called, wherever it is called
from (`wrap` handed to `applier(module, wrap)` shards with the `mesh` of the function that defined
it). The flow passes them to a call of the closure as if they were keyword arguments, with the
values they have where the closure is named, and binds them in the closure's walk as parameters.
"""

from __future__ import annotations

import weakref
from typing import Callable, Optional, Tuple

from astroid import nodes

from fsdp_lint.analysis.node_listing import nodes_within

Binding = Callable[[nodes.Name], Optional[nodes.NodeNG]]

# by function, for as long as its tree lives: what a function reads depends on its syntax alone
_FREE: "weakref.WeakKeyDictionary[nodes.FunctionDef, Tuple[str, ...]]" = weakref.WeakKeyDictionary()


def enclosing_function(func: nodes.FunctionDef) -> Optional[nodes.FunctionDef]:
    """The function a `def` is nested in (directly), or None for a module's or a class's own."""
    outer = func.parent.scope() if func.parent is not None else None
    return outer if isinstance(outer, nodes.FunctionDef) else None


def free_variables(func: nodes.FunctionDef, binding: Binding) -> Tuple[str, ...]:
    """The names `func` reads that a function around it binds (not the functions and classes
    it defines: a name bound to one of those is that function as a value wherever it is read)."""
    if enclosing_function(func) is None:
        return ()
    known = _FREE.get(func)
    if known is None:
        known = _FREE[func] = _free_variables(func, binding)
    return known


def _free_variables(func: nodes.FunctionDef, binding: Binding) -> Tuple[str, ...]:
    found = set()
    for name in nodes_within(func, nodes.Name):
        bound = binding(name)
        if bound is None or isinstance(bound, (nodes.FunctionDef, nodes.ClassDef)):
            continue
        scope = bound.scope()
        if scope is not func and isinstance(scope, nodes.FunctionDef) and _encloses(scope, func):
            found.add(name.name)
    return tuple(sorted(found))


def _encloses(outer: nodes.NodeNG, inner: nodes.NodeNG) -> bool:
    node = inner.parent
    while node is not None:
        if node is outer:
            return True
        node = node.parent
    return False
