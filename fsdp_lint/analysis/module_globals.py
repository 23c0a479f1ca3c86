"""Module globals as the code that runs outside a module's top level sees them.

A function reads a global by its name, and an importer by the module's name and its own: both
denote the object the top level bound the name to (`MODEL = fully_shard(Linear(2, 2))` binds
`MODEL` to the object the call was given; `TRAINER = Trainer()` to an object whose `model` its
constructor sharded). The walks name such an object by the global, `(module, "MODEL", 0)`, so
the facts of the top level's objects are handed over translated into paths of global names:
at a call from the top level, the state there (`Flow._context_for`); to a function called from
outside the module or to an importer, the state the whole top level left (`ModuleGlobals`: a
module's top level has run entirely before an `import` of it returns).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

from astroid import nodes
from astroid.const import Context

from fsdp_lint.analysis.context import ABOVE, AttrPath
from fsdp_lint.analysis.node_listing import nodes_within
from fsdp_lint.analysis.registrations import Registration
from fsdp_lint.analysis.values import WILDCARD, Container, Obj, Root, Value, constant, objects_in, options_of, path_covers

GlobalPath = Tuple[Root, AttrPath]  # a global and a path inside it; `ABOVE`: a module around it


@dataclass(frozen=True)
class ModuleGlobals:
    """The paths of a module's globals that its top level may have left sharded, and the modules
    whose code that walk could not enter (what the facts depend on, as `Flow.deferred`)."""

    sharded: FrozenSet[GlobalPath] = frozenset()
    deferred: FrozenSet[str] = frozenset()

    def under(self, root: Root) -> bool:
        """Whether the global `root` may hold shards."""
        return any(path[0] == root for path in self.sharded)


NOTHING = ModuleGlobals()


def global_root(module: str, name: str) -> Root:
    """The object a global of `module` denotes in the walks of code other than its top level."""
    return (module, name, 0)


def is_global(root: Root) -> bool:
    """Whether `root` is a global's (a module-level name), not an object the top level built
    unnamed (an argument, named by its text) or got from a call."""
    return ":" not in root[0] and root[2] == 0 and root[1].isidentifier()


def bound_globals(env: Mapping[str, Value], module: str) -> Dict[Root, List[Tuple[Root, AttrPath]]]:
    """The globals a top level bound to objects known by other roots, by those roots: `MODEL`
    for the object `fully_shard(...)` returned, `MODELS` (its items, `*`) for the objects of a list."""
    found: Dict[Root, List[Tuple[Root, AttrPath]]] = {}
    for name, value in env.items():
        own = global_root(module, name)
        for option in options_of(value):
            inside = (option,) if isinstance(option, Obj) else tuple(Obj(o.root, (WILDCARD,) + o.attrs) for o in objects_in(option))
            for obj in inside:
                if obj.root != own:
                    found.setdefault(obj.root, []).append((own, obj.attrs))
    return found


def paths_to(names: Iterable[Obj], bound: Mapping[Root, List[Tuple[Root, AttrPath]]]) -> List[GlobalPath]:
    """The global paths by which the object known by `names` (its root and the attributes that
    hold it) is reached: a name that is a global's, and each global bound to the object or to
    one that holds it (`ABOVE` where the global's object lies inside it)."""
    found: List[GlobalPath] = []
    for name in names:
        if is_global(name.root):
            found.append((name.root, name.attrs))
        for own, attrs in bound.get(name.root, ()):
            bound_to = Obj(name.root, attrs)
            if path_covers(bound_to, name):
                found.append((own, name.attrs[len(attrs):]))
            elif path_covers(name, bound_to):
                found.append((own, ABOVE))
    return list(dict.fromkeys(found))


def declared_global(target: nodes.AssignName) -> bool:
    """Whether a name a function binds is its module's global (`global NAME` before it): astroid
    keeps the binding among the module's names, not the function's."""
    scope = target.scope()
    return not isinstance(scope, nodes.Module) and target.name not in scope.locals and target in target.root().locals.get(target.name, ())


def literal_global(binding: nodes.AssignName) -> Optional[Value]:
    """The value of a global its module binds once (no other assignment, no `global` rebinding
    in a function, no `+=`) to a literal constant (`MODEL_KEY = "model"`), or to a tuple or list
    literal of constants that no code of the module changes in place (`_changed`): what every
    function reads (`for name in COMPONENT_NAMES: setattr(self, name, ...)`). None for other
    globals. Whether code outside the module rebinds it is `named_constants`' question."""
    if binding in _LITERALS:
        return _LITERALS[binding]
    found: Optional[Value] = None
    value = assigned_literal(binding)  # the literal first: most globals are none, and `_changed` scans the module
    if isinstance(value, nodes.Const) and _bound_once(binding) is value:
        found = constant(value.value)
    elif isinstance(value, (nodes.Tuple, nodes.List)) and all(isinstance(e, nodes.Const) for e in value.elts) and _bound_once(binding) is value:
        found = Container(tuple(constant(e.value) for e in value.elts), exact=True)
    _LITERALS[binding] = found
    return found


def assigned_literal(binding: nodes.AssignName) -> Optional[nodes.NodeNG]:
    """The expression a plain assignment binds the name to (`NAME = value`, `NAME: T = value`);
    None for other bindings (unpacking, a loop, `+=`)."""
    statement = binding.parent
    if isinstance(statement, nodes.Assign) and binding in statement.targets or isinstance(statement, nodes.AnnAssign) and statement.target is binding:
        return statement.value
    return None


def registry(
    binding: nodes.AssignName, registered: Callable[[nodes.NodeNG], Optional[Value]], decorated: Sequence[Registration] = (),
) -> Optional[Container]:
    """The value of a global its module binds once to a dict literal of constant keys whose
    values are all classes or functions of the tree (`registered`: the `ClassRef` or `Partial` a
    value's expression, or a registered class, names, if one the walk can call: a class in a
    module not entered yet is none until it is), and that no code of the module changes in place
    (`_changed`) but the decorators that register classes into it (`decorated`,
    `fsdp_lint.analysis.registrations`, where it may also be bound to an empty dict or to an
    object of the tree's own dict class): a registry that code picks an entry from by a key
    known at run time, `MODEL_REGISTRY[config.model.type](config.model)` (which constructs one of
    the classes) or `models_parallelize_fns[name](model, mesh)` (which runs one of the
    functions). None for other globals."""
    return _registry_value(registry_entries(binding, decorated), registered)


def registry_of(value: Optional[nodes.NodeNG], registered: Callable[[nodes.NodeNG], Optional[Value]], decorated: Sequence[Registration]) -> Optional[Container]:
    """`registry` of a dict bound elsewhere than at module level (a class attribute,
    `_engines = {}`), where the caller knows nothing else changes it."""
    return _registry_value(_entries(value, decorated), registered)


def _registry_value(entries: Optional[Tuple[Tuple[object, nodes.NodeNG], ...]], registered: Callable[[nodes.NodeNG], Optional[Value]]) -> Optional[Container]:
    if entries is None:
        return None
    values = [registered(item) for _, item in entries]
    if None in values:
        return None
    return Container(tuple(values), tuple(key for key, _ in entries))  # type: ignore[arg-type]


def registry_entries(binding: nodes.AssignName, decorated: Sequence[Registration] = ()) -> Optional[Tuple[Tuple[object, nodes.NodeNG], ...]]:
    """The keys and value expressions of the dict literal a global is bound to, where its module
    binds it once and changes it nowhere, its keys are constants and its values names (`{"olmo":
    Olmo}`), with the classes decorators register into it (`registry`); None otherwise. A literal
    is read once per global: what the names denote is asked each time."""
    if not decorated and binding in _ENTRIES:
        return _ENTRIES[binding]
    value = assigned_literal(binding)
    found = _entries(value, decorated)
    if found is not None and _bound_once(binding, frozenset(id(r.store) for r in decorated)) is not value:
        found = None
    if not decorated:
        _ENTRIES[binding] = found
    return found


def _entries(value: Optional[nodes.NodeNG], decorated: Sequence[Registration]) -> Optional[Tuple[Tuple[object, nodes.NodeNG], ...]]:
    """The entries of a dict literal of constant keys and names, with the classes decorators
    register into it; where some do, it may be empty, or an object built with no arguments (of
    the tree's own dict class, `Register()`). None for other values."""
    if isinstance(value, nodes.Dict) and (value.items or decorated) and all(
        isinstance(key, nodes.Const) and isinstance(item, (nodes.Name, nodes.Attribute)) for key, item in value.items
    ):
        return tuple((key.value, item) for key, item in value.items) + tuple((r.key, r.cls) for r in decorated)
    if decorated and isinstance(value, nodes.Call) and not value.args and not value.keywords:
        return tuple((r.key, r.cls) for r in decorated)
    return None


def _bound_once(binding: nodes.AssignName, registering: FrozenSet[int] = frozenset()) -> Optional[nodes.NodeNG]:
    """The literal a global is bound to where its module binds it once and only there (no other
    assignment, no `global` rebinding in a function, no `+=`), and, unless it is a constant or a
    tuple, no code of the module changes it in place but the item assignments `registering`
    (by id); None otherwise."""
    module = binding.scope()
    value = assigned_literal(binding)
    if value is None or not isinstance(module, nodes.Module) or len(module.locals.get(binding.name, ())) != 1:
        return None
    return value if isinstance(value, (nodes.Const, nodes.Tuple)) or not _changed(module, binding.name, registering) else None


def _changed(module: nodes.Module, name: str, registering: FrozenSet[int] = frozenset()) -> bool:
    """Whether the module's code may change the list bound to `name` in place: a method of it
    called or read (`NAMES.append`), an item or slice of it assigned or deleted (but by the
    item assignments `registering`, by id)."""
    return any(
        read.name == name and (
            isinstance(read.parent, nodes.Attribute)
            or isinstance(read.parent, nodes.Subscript) and read.parent.ctx != Context.Load and id(read.parent) not in registering
        )
        for read in nodes_within(module, nodes.Name)
    )


_LITERALS: "weakref.WeakKeyDictionary[nodes.AssignName, Optional[Value]]" = weakref.WeakKeyDictionary()
_ENTRIES: "weakref.WeakKeyDictionary[nodes.AssignName, Optional[Tuple[Tuple[object, nodes.NodeNG], ...]]]" = weakref.WeakKeyDictionary()
