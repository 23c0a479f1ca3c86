"""Names that stand for a constant the code wrote once: a module global or a class attribute bound
to a literal (`MODEL_KEY = "model"`) that nothing in the tree binds again. A read of one is that
literal, so what the literal decides it decides (`{MODEL_KEY: sd}` has the key "model", `k not in
[Utils.MODEL_KEY]` is decided for a constant `k`); a name that may be bound again stays the object
the walks name it by.

Bound again: a second binding in its module or class (`global` in a function, an `if` arm), or
an attribute of its name assigned anywhere in the parsed tree (`config.DEBUG = True` from
another module, `cls.KEY = ...`): by name, whatever object it is assigned on, which costs one
pass over the parsed modules and may only keep a constant from being read as one.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, FrozenSet, Optional

from astroid import nodes

from fsdp_lint.analysis import class_values
from fsdp_lint.analysis.module_globals import assigned_literal, literal_global
from fsdp_lint.analysis.node_listing import nodes_within
from fsdp_lint.analysis.values import Constant, Value, constant

if TYPE_CHECKING:
    from fsdp_lint.analysis.project import Project


def global_constant(project: "Project", binding: nodes.AssignName) -> Optional[Value]:
    """The value of a global bound once to a literal (`module_globals.literal_global`) that no
    code of the tree assigns as an attribute; None otherwise."""
    found = literal_global(binding)
    return found if found is not None and binding.name not in _assigned_attributes(project) else None


def class_constant(project: "Project", cls: nodes.ClassDef, attr: str) -> Optional[Constant]:
    """The value of `cls.attr` where the first class of its hierarchy that binds the name binds it
    once, in its body, to a literal, and no code of the tree assigns an attribute of that name;
    None otherwise."""
    for klass in class_values.hierarchy(project, cls):
        bindings = klass.locals.get(attr)
        if not bindings:
            continue
        value = assigned_literal(bindings[0]) if len(bindings) == 1 and isinstance(bindings[0], nodes.AssignName) else None
        if isinstance(value, nodes.Const) and bindings[0].statement().parent is klass and attr not in _assigned_attributes(project):
            return constant(value.value)
        return None
    return None


# The attribute names each module assigns, and those of each project's modules.
_MODULE_ASSIGNED: "weakref.WeakKeyDictionary[nodes.Module, FrozenSet[str]]" = weakref.WeakKeyDictionary()
_ASSIGNED: "weakref.WeakKeyDictionary[Project, FrozenSet[str]]" = weakref.WeakKeyDictionary()


def _assigned_attributes(project: "Project") -> FrozenSet[str]:
    """The attribute names the code of the project's modules assigns: those the engine parsed
    and those the flows enter, a set one round's walks all read alike (the modules parsed on
    demand during the round are among the entered ones, or code no walk runs)."""
    known = _ASSIGNED.get(project)
    if known is None:
        names = set(project.modules) | set(project.entered or ())
        modules = [module for module in map(project.module, sorted(names)) if module is not None]
        known = _ASSIGNED[project] = frozenset().union(*map(_module_assigned, modules))
    return known


def _module_assigned(module: nodes.Module) -> FrozenSet[str]:
    found = _MODULE_ASSIGNED.get(module)
    if found is None:
        found = _MODULE_ASSIGNED[module] = frozenset(node.attrname for node in nodes_within(module, nodes.AssignAttr))
    return found
