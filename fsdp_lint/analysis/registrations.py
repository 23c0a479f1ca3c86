"""Classes that a decorator of the tree stores in a dict: `@MODEL_REGISTER("wan_t2v")` on a model
class (a dict whose `__call__` returns the decorator), `@EngineRegistry.register(backend="fsdp2")`
on an engine (a classmethod whose decorator writes `cls._engines[backend]`), `@register("gpt")`
(a function whose decorator writes a module's dict). No code names the class a lookup of that
dict gives (`MODEL_REGISTER[config["name"]](config)`), so what the dict holds is read from the
code of the decorator: the dict its body stores the decorated class into, and the key it stores
it under (a constant, or the constant the decorator's call passes for a parameter of the
factory; other keys are not known). A dict is named by a qualified name: the global
(`app.registry.MODEL_REGISTER`) or the class attribute (`registry.EngineRegistry._engines`).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Dict, List, NamedTuple, Optional, Sequence, Tuple

from astroid import nodes
from astroid.const import Context

from fsdp_lint.analysis import syntax
from fsdp_lint.analysis.values import UNNAMED
from fsdp_lint.analysis.node_listing import nodes_within

if TYPE_CHECKING:
    from fsdp_lint.analysis.project import Project


class Registration(NamedTuple):
    """A class the decorator `at` stores into the dict named `registry` under `key` (`UNNAMED`
    where not known), by the item assignment `store`."""

    registry: str
    key: object
    cls: nodes.ClassDef
    store: nodes.Subscript


def registered_in(project: "Project", registry: str, owner: Optional[Tuple[str, str]] = None) -> Tuple[Registration, ...]:
    """The registrations into the dict `registry` by the classes of the modules parsed so far
    (indexed again when more are), once the modules that apply a registering decorator reached
    through `owner` are parsed: (module, name) of the global or class of `registry` that a
    decorating module imports (`app.registry`, `MODEL_REGISTER`)."""
    if owner is not None:
        _parse_users(project, owner[0], owner[1])
    known = _BY_REGISTRY.get(project)
    if known is None or known[0] != len(project.modules):
        modules = list(project.modules.values())
        index: Dict[str, Tuple[Registration, ...]] = {}
        for module in modules:
            for found in of_module(project, module):
                index[found.registry] = index.get(found.registry, ()) + (found,)
        known = _BY_REGISTRY[project] = (len(modules), index)
    return known[1].get(registry, ())


def fills_module(project: "Project", module: str) -> bool:
    """Whether a decorator registers classes into a dict of `module` (a global of it, or an
    attribute of one of its classes), once the modules that apply its registering decorators
    are parsed."""
    _parse_users(project, module, None)
    registered_in(project, "")  # the index, up to date
    return any(registry.startswith(module + ".") for registry in _BY_REGISTRY[project][1])


def _parse_users(project: "Project", module: str, name: Optional[str]) -> None:
    """Parse the modules that apply the name `name` of `module` (any, for None) as a class
    decorator where it registers (`_registers`): nothing else leads to them (the trainer imports
    them for their side effect, or lazily), and their classes are what the registry holds."""
    for user, names in project.decorator_users(module).items():
        if user not in project.modules and any(_registers(project, f"{module}.{n}") for n in names if name is None or n == name):
            project.module(user)


def _registers(project: "Project", qname: str) -> bool:
    """Whether decorating a class with what `qname` names (a function, a global whose object's
    `__call__` is one, a class whose methods are), called or not, can store the class into a
    dict (`_stores`): read once per qualified name."""
    known = _REGISTERS.setdefault(project, {})
    if qname not in known:
        known[qname] = False  # (a decorator reached again while this one is read)
        found = project.resolve_callable(qname)
        factories: List[Tuple[nodes.FunctionDef, Optional[str]]] = []
        if isinstance(found, nodes.FunctionDef):
            factories.append((found, None))
        elif isinstance(found, nodes.ClassDef):
            factories += [(method, None) for method in found.mymethods() if isinstance(method, nodes.FunctionDef)]
        else:
            call = _instance_call(project, qname)
            factories += [(call, qname)] if call is not None else []
        known[qname] = any(
            _stores(factory, None, None) or (inner is not None and _stores(inner, _receiver(project, factory, holder), holder))
            for factory, holder in factories
            for inner in [_returned_function(factory)]
        )
    return known[qname]


def changed_in_class(cls: nodes.ClassDef, attr: str, decorated: Sequence[Registration]) -> bool:
    """Whether the code of `cls` may change its dict `attr` otherwise than by the registrations
    `decorated`: an item of it assigned or deleted elsewhere, a method of it called or read
    (`cls._engines.update(...)`), the attribute rebound."""
    registering = {id(found.store) for found in decorated}
    return any(
        isinstance(node, nodes.AssignAttr) and node.attrname == attr
        or isinstance(node, nodes.Attribute) and node.attrname == attr and (
            isinstance(node.parent, nodes.Attribute)
            or isinstance(node.parent, nodes.Subscript) and node.parent.ctx != Context.Load and id(node.parent) not in registering
        )
        for node in nodes_within(cls, (nodes.Attribute, nodes.AssignAttr))
    )


def of_module(project: "Project", module: nodes.Module) -> Tuple[Registration, ...]:
    """The registrations by the decorated classes of a module (what names resolve to depends on
    the tree alone: read once per module)."""
    if module not in _FOUND:
        found: List[Registration] = []
        for cls in nodes_within(module, nodes.ClassDef):
            for decorator in cls.decorators.nodes if cls.decorators else ():
                found.extend(_registrations(project, cls, decorator))
        _FOUND[module] = tuple(found)
    return _FOUND[module]


def _registrations(project: "Project", cls: nodes.ClassDef, decorator: nodes.NodeNG) -> List[Registration]:
    """What the decorator `decorator` stores `cls` into: a call of a factory that returns the
    decorator (a function, a classmethod, the `__call__` of an object a global holds), or a
    function of the tree that is the decorator itself."""
    named = decorator.func if isinstance(decorator, nodes.Call) else decorator
    if not isinstance(named, (nodes.Name, nodes.Attribute)):
        return []
    qname = project.qualified_name(named)
    factory = project.resolve_callable(qname)
    holder: Optional[str] = None  # the global whose object's `__call__` is the factory
    if isinstance(factory, nodes.ClassDef) or factory is None and isinstance(decorator, nodes.Call):
        factory, holder = _instance_call(project, qname), qname
    if not isinstance(factory, nodes.FunctionDef):
        return []
    if not isinstance(decorator, nodes.Call):
        return [Registration(registry, _key(store.slice, {}), cls, store) for registry, store in _stores(factory, None, None)]
    inner = _returned_function(factory)
    if inner is None:
        return []
    arguments = _arguments(factory, decorator, _is_method(factory))
    return [
        Registration(registry, _key(store.slice, arguments), cls, store)
        for registry, store in _stores(inner, _receiver(project, factory, holder), holder)
    ]


def _is_method(factory: nodes.FunctionDef) -> bool:
    return isinstance(factory.parent, nodes.ClassDef) and not syntax.is_staticmethod(factory)


def _receiver(project: "Project", factory: nodes.FunctionDef, holder: Optional[str]) -> Optional[Tuple[str, str]]:
    """The factory's first parameter, with the owner of the dicts it denotes: the global
    `holder` whose object's `__call__` it is, or the class of a classmethod."""
    if _is_method(factory) and holder is not None:
        return (syntax.first_param(factory) or "", holder)
    if _is_method(factory) and syntax.is_classmethod(factory):
        return (syntax.first_param(factory) or "", project.class_qname(factory.parent))
    return None


def _instance_call(project: "Project", qname: Optional[str]) -> Optional[nodes.FunctionDef]:
    """The `__call__` of the object a global of the tree is bound to where its module binds it
    once to a call of a class of the tree (`MODEL_REGISTER = Register()`)."""
    module, _, name = (qname or "").rpartition(".")
    tree = project.module(module) if module else None
    bindings = tree.locals.get(name, ()) if tree is not None else ()
    if len(bindings) != 1 or not isinstance(bindings[0], nodes.AssignName):
        return None
    statement = bindings[0].parent
    if not (isinstance(statement, nodes.Assign) and isinstance(statement.value, nodes.Call) and isinstance(statement.value.func, (nodes.Name, nodes.Attribute))):
        return None
    cls = project.resolve_callable(project.qualified_name(statement.value.func))
    if not isinstance(cls, nodes.ClassDef):
        return None
    for klass in [cls] + project.tree_bases(cls):
        method = klass.locals.get("__call__", [None])[-1]
        if isinstance(method, nodes.FunctionDef):
            return method
    return None


def _returned_function(factory: nodes.FunctionDef) -> Optional[nodes.FunctionDef]:
    """The function defined in `factory` that it returns (`def add(cls): ...; return add`)."""
    returns = [node for node in nodes_within(factory, nodes.Return) if node.scope() is factory]
    if len(returns) != 1 or not isinstance(returns[0].value, nodes.Name):
        return None
    defined = factory.locals.get(returns[0].value.name, ())
    return defined[0] if len(defined) == 1 and isinstance(defined[0], nodes.FunctionDef) else None


def _arguments(factory: nodes.FunctionDef, call: nodes.Call, method: bool) -> Dict[str, nodes.NodeNG]:
    """The factory's parameters bound to what the decorator's call passes, or to their defaults."""
    positional = list(factory.args.posonlyargs or []) + list(factory.args.args or [])
    positional = positional[1:] if method else positional
    bound: Dict[str, nodes.NodeNG] = {}
    defaults = list(factory.args.defaults or [])
    for param, default in zip(positional[len(positional) - len(defaults):], defaults):
        bound[param.name] = default
    for param, default in zip(factory.args.kwonlyargs or [], factory.args.kw_defaults or []):
        if default is not None:
            bound[param.name] = default
    for param, arg in zip(positional, call.args):
        bound[param.name] = arg
    for keyword in call.keywords or []:
        if keyword.arg is not None:
            bound[keyword.arg] = keyword.value
    return bound


def _stores(decorator: nodes.FunctionDef, receiver: Optional[Tuple[str, str]], holder: Optional[str]) -> List[Tuple[str, nodes.Subscript]]:
    """The item assignments of the decorated class in the decorator's body (`registry[key] =
    cls`), with the dict each stores into: the object the factory was called on (`self[name]`,
    the global `holder`), an attribute of the class it was called on (`cls._engines[backend]`),
    or a global of the decorator's module (`REGISTRY[name]`)."""
    param = syntax.first_param(decorator)
    found: List[Tuple[str, nodes.Subscript]] = []
    for assign in nodes_within(decorator, nodes.Assign):
        target = assign.targets[0] if len(assign.targets) == 1 else None
        if not (isinstance(target, nodes.Subscript) and isinstance(assign.value, nodes.Name) and assign.value.name == param):
            continue
        into = target.value
        registry = None
        if isinstance(into, nodes.Name) and receiver is not None and into.name == receiver[0] and holder is not None:
            registry = holder
        elif isinstance(into, nodes.Attribute) and isinstance(into.expr, nodes.Name) and receiver is not None and into.expr.name == receiver[0] and holder is None:
            registry = f"{receiver[1]}.{into.attrname}"
        elif isinstance(into, nodes.Name) and (receiver is None or into.name != receiver[0]):
            bindings = decorator.root().locals.get(into.name, ())
            if into.lookup(into.name)[0] is decorator.root() and bindings:
                registry = f"{decorator.root().name}.{into.name}"
        if registry is not None:
            found.append((registry, target))
    return found


def _key(index: nodes.NodeNG, arguments: Dict[str, nodes.NodeNG]) -> object:
    """The constant a store's key is: a literal, or a parameter of the factory the decorator's
    call gives a literal; `UNNAMED` otherwise."""
    if isinstance(index, nodes.Name) and index.name in arguments:
        index = arguments[index.name]
    return index.value if isinstance(index, nodes.Const) else UNNAMED


_BY_REGISTRY: "weakref.WeakKeyDictionary[Project, Tuple[int, Dict[str, Tuple[Registration, ...]]]]" = weakref.WeakKeyDictionary()
_FOUND: "weakref.WeakKeyDictionary[nodes.Module, Tuple[Registration, ...]]" = weakref.WeakKeyDictionary()
_REGISTERS: "weakref.WeakKeyDictionary[Project, Dict[str, bool]]" = weakref.WeakKeyDictionary()
