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
_MAKES: "weakref.WeakKeyDictionary[nodes.Module, bool]" = weakref.WeakKeyDictionary()


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


def makes_functions(module: nodes.Module) -> bool:
    """Whether a function of `module` returns a function the module defines (a `def` of its own
    body or a lambda, as `def make_step(cfg): def step(model, batch): ...; return step`, or a
    `functools.partial` of one): only then can a call of what a call into the module returned
    run the module's code. A getter that returns what it imported, looked up or was given
    (`_get_component_from_path(path)`) runs code the module does not hold."""
    known = _MAKES.get(module)
    if known is None:
        known = _MAKES[module] = any(_returns_own_function(func) for func in nodes_within(module, nodes.FunctionDef))
    return known


def _returns_own_function(func: nodes.FunctionDef) -> bool:
    for returned in nodes_within(func, nodes.Return, nodes.FunctionDef):
        value = returned.value
        if isinstance(value, nodes.Lambda):
            return True
        if isinstance(value, nodes.Name) and any(isinstance(bound, nodes.FunctionDef) for bound in func.locals.get(value.name, ())):
            return True
        if isinstance(value, nodes.Call) and isinstance(value.func, (nodes.Name, nodes.Attribute)) and value.func.as_string().rsplit(".", 1)[-1] == "partial":
            return True
    return False
