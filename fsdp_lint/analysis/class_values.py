"""What the tree's class definitions say about the values of their objects: an attribute that is a
`@property` (read by running its getter), whether an object of a known class passes an
`isinstance` test, and the constant defaults of a dataclass's fields.

A framework that selects FSDP1 or FSDP2 from a configuration object (composer's
`isinstance(self.fsdp_config, FSDPConfig)`, where `fsdp_config` is a property over the fields of
a `ParallelismConfig` dataclass) is followed down the arm its configuration takes only when all
three are known; each answers None (unknown) where the tree does not settle it.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Dict, FrozenSet, Iterator, Optional, Tuple

from astroid import nodes

from fsdp_lint.analysis import known_apis
from fsdp_lint.analysis.node_listing import nodes_within
from fsdp_lint.analysis.paths import name_chain
from fsdp_lint.analysis.values import Constant

if TYPE_CHECKING:
    from fsdp_lint.analysis.project import Project

# Decorators that make a method an attribute computed on read.
_PROPERTIES = frozenset({"builtins.property", "property", "functools.cached_property"})
# How far up a class hierarchy the tree is searched.
_MAX_BASES = 32


def class_named(project: "Project", qname: str) -> Optional[nodes.ClassDef]:
    """The class of the tree a qualified name denotes, in a module the flows enter."""
    memo = _memo(project)
    key = ("class", qname)
    if key not in memo:
        found = project.callable_for_flow(qname)
        memo[key] = found if isinstance(found, nodes.ClassDef) else None
    return memo[key]  # type: ignore[return-value]


def property_getter(project: "Project", cls: nodes.ClassDef, attr: str) -> Optional[nodes.FunctionDef]:
    """The getter of `attr` if it is a property of `cls` or of one of its bases in the tree (the
    first class in method resolution order that defines the name decides)."""
    memo = _memo(project)
    key = ("property", id(cls), attr)
    if key not in memo:
        memo[key] = _property_getter(project, cls, attr)
    return memo[key]  # type: ignore[return-value]


def self_reads(project: "Project", method: nodes.FunctionDef) -> FrozenSet[str]:
    """The attributes of `self` a method reads (`Project.self_reads`), with those that the
    getters of the properties it reads on `self` read (`self.fsdp_config` returning
    `self._fsdp2_config`), and so on through a property read by a getter (composer's
    `load_monolith_rank0_only` reading `fsdp_config`): what of `self` its calling context must
    carry."""
    memo = _memo(project)
    key = ("reads", id(method))
    if key not in memo:
        reads = project.self_reads(method)
        cls = method.parent
        found, todo, seen = set(reads), list(reads), {method}
        while todo and isinstance(cls, nodes.ClassDef):  # through properties over properties
            getter = property_getter(project, cls, todo.pop())
            if getter is not None and getter not in seen:
                seen.add(getter)
                more = project.self_reads(getter) - found
                found |= more
                todo.extend(more)
        memo[key] = frozenset(found) if len(found) > len(reads) else reads
    return memo[key]  # type: ignore[return-value]


def returned_attribute(getter: nodes.FunctionDef) -> Optional[Tuple[str, ...]]:
    """`("state", "device")` for a getter whose body is `return self.state.device` alone: read
    where the property is read, without a call."""
    body = [s for s in getter.body if not (isinstance(s, nodes.Expr) and isinstance(s.value, nodes.Const))]
    if len(body) != 1 or not isinstance(body[0], nodes.Return):
        return None
    found = attribute_or_constants(getter)
    return found[0] if found is not None and not found[1] else None


def attribute_or_constants(getter: nodes.FunctionDef) -> Optional[Tuple[Tuple[str, ...], Tuple[object, ...]]]:
    """`(("config", "state_dict_type"), (None, "full"))` for a getter each of whose `return`s
    gives that attribute of `self` or a constant (composer's `fsdp_state_dict_type`): where its
    value passes a test that none of the constants passes, the value is that attribute's, so the
    outcome is also one of the attribute (the same flag in a method that reads it directly)."""
    if not getter.args.args or any(True for _ in nodes_within(getter, (nodes.Yield, nodes.YieldFrom), nodes.FunctionDef)):
        return None
    own = getter.args.args[0].name
    chains, constants = set(), []
    returns = [r for r in nodes_within(getter, nodes.Return, (nodes.FunctionDef, nodes.Lambda)) if r.scope() is getter]
    for ret in returns:
        if ret.value is None or isinstance(ret.value, nodes.Const):
            constants.append(None if ret.value is None else ret.value.value)
            continue
        chain = name_chain(ret.value)
        if chain is None or len(chain) < 2 or chain[0] != own:
            return None
        chains.add(tuple(chain[1:]))
    if len(chains) != 1:
        return None
    if not getter.body or not isinstance(getter.body[-1], (nodes.Return, nodes.Raise)):
        constants.append(None)  # it may fall off its end
    return chains.pop(), tuple(constants)


def _property_getter(project: "Project", cls: nodes.ClassDef, attr: str) -> Optional[nodes.FunctionDef]:
    for klass in hierarchy(project, cls):
        bindings = klass.locals.get(attr)
        if not bindings:
            continue
        for binding in bindings:
            if isinstance(binding, nodes.FunctionDef) and binding.decorators and any(
                _decorator_name(project, decorator) in _PROPERTIES for decorator in binding.decorators.nodes
            ):
                return binding
        return None
    return None


def is_instance(project: "Project", cls: nodes.ClassDef, tested: str) -> Optional[bool]:
    """Whether an object of `cls`, a class of the tree, passes `isinstance(obj, tested)` (a
    qualified name): True when its class or a base is that class, False when none is and each
    base outside the tree is decided not to be (`_base_instance`), None when not known."""
    if any(klass.qname() == tested for klass in hierarchy(project, cls)):
        return True
    answers = {_base_instance(project, base, tested) for base in _outside_bases(project, cls)}
    return True if True in answers else None if None in answers else False


def outside_instance(project: "Project", cls: str, tested: str) -> Optional[bool]:
    """Whether an object of `cls`, a class outside the tree (by qualified name), passes
    `isinstance(obj, tested)`: decided for torch's classes (`_base_instance`), whose objects are
    what their constructor says; another library's class may stand for any its factory returns
    (a pretrained model: one of the tree's among them), and is only itself."""
    if cls == tested:
        return True
    return _base_instance(project, cls, tested) if cls.startswith("torch.") else None


def _base_instance(project: "Project", base: str, tested: str) -> Optional[bool]:
    """Whether a class outside the tree (a base of one of its classes) is `tested` or derives
    from it: not from a class of the tree (`isinstance(model, LocalWrapper)` on an `nn.Module`),
    nor, where it is torch's, from one of torch's wrappers it is not (`known_apis.wrapper_instance`)."""
    if base == tested:
        return True
    if class_named(project, tested) is not None:
        return False
    if tested in known_apis.BUILTIN_TYPES and known_apis.nn_module_class(base):
        return False
    answer = known_apis.module_base_instance(tested) if base in known_apis.MODULE_CLASSES else None
    return answer if answer is not None else known_apis.wrapper_instance(base, tested)


def always_true(project: "Project", cls: nodes.ClassDef) -> bool:
    """Whether every object of `cls`, a class of the tree, is true in a test (`if models:`): no
    class of its hierarchy defines `__bool__` or `__len__`, and each base outside the tree is a
    class of torch.nn whose objects are (`known_apis.module_always_true`)."""
    memo = _memo(project)
    key = ("true", id(cls))
    if key not in memo:
        memo[key] = not any("__bool__" in klass.locals or "__len__" in klass.locals for klass in hierarchy(project, cls)) and all(
            known_apis.module_always_true(base) for base in _outside_bases(project, cls)
        )
    return memo[key]  # type: ignore[return-value]


def plain_module(project: "Project", qname: Optional[str]) -> bool:
    """Whether every object of the class `qname` is a module that is true in a test and an
    instance of no builtin type (`known_apis.BUILTIN_TYPES`) and of none of torch's wrappers
    (`known_apis.torch_wrapper`): torch.nn's classes but the sized ones and the wrappers, and the
    tree's classes over them that define neither `__bool__` nor `__len__` (a builtin base would
    be an outside base that is no module). What a context that drops the class keeps of it
    (`ObjectFacts.plain`): it decides `if models:`, `isinstance(models, list)` and the unwrapping
    of a DDP or compiled model (`isinstance(model, DistributedDataParallel)`), and leaves tests
    against the other module classes open."""
    if not qname:
        return False
    cls = class_named(project, qname)
    if cls is None:
        return known_apis.module_always_true(qname) and not known_apis.torch_wrapper(qname)
    outside = _outside_bases(project, cls)
    return bool(outside) and always_true(project, cls) and not any(known_apis.torch_wrapper(base) for base in outside)


def is_setting_class(project: "Project", qname: Optional[str]) -> bool:
    """Whether an object of the class `qname` is a setting rather than a module: a class of the
    tree whose hierarchy the tree holds whole (a dataclass of options, a plain holder of them) but
    for configuration bases of libraries (`pydantic.BaseModel`: `known_apis.SETTING_BASES`), which
    no `nn.Module` is. Which of them a program builds selects its code path
    (`isinstance(cfg.fsdp, FSDPConfig)`), where a module's class only names it; built under
    `torch.device("meta")`, it is on no device (`Flow._materialise`)."""
    cls = class_named(project, qname) if qname else None
    if cls is None:
        return False
    memo = _memo(project)
    key = ("setting", id(cls))
    if key not in memo:
        memo[key] = all(base in known_apis.SETTING_BASES for base in _outside_bases(project, cls))
    return memo[key]  # type: ignore[return-value]


def never_binds(project: "Project", cls: nodes.ClassDef, attr: str) -> bool:
    """Whether an object of `cls` has no attribute `attr` unless code outside its classes sets
    one: its whole hierarchy is in the tree, and none of its classes binds the name."""
    return not _outside_bases(project, cls) and not binds_in_tree(project, cls, attr)


def method_sources(project: "Project", qname: str, method: str) -> Tuple[str, ...]:
    """The classes outside the tree an object of class `qname` takes `method` from: the class
    itself when the tree does not define it, the bases outside the tree of its hierarchy when no
    class of the tree binds the name (what runs is one of theirs), none when one does (an
    attribute set on `self` may be any callable)."""
    cls = class_named(project, qname)
    if cls is None:
        return (qname,)
    memo = _memo(project)
    key = ("sources", id(cls), method)
    if key not in memo:
        memo[key] = () if binds_in_tree(project, cls, method) else _outside_bases(project, cls)
    return memo[key]  # type: ignore[return-value]


def binds_in_tree(project: "Project", cls: nodes.ClassDef, attr: str) -> bool:
    """Whether one of the classes of the tree in `cls`'s hierarchy binds `attr` (a method, a class
    attribute, `self.attr = ...` in a method) or computes attributes (`__getattr__`)."""
    memo = _memo(project)
    key = ("binds", id(cls), attr)
    if key not in memo:
        memo[key] = any(
            attr in klass.locals or attr in klass.instance_attrs or "__getattr__" in klass.locals or "__getattribute__" in klass.locals
            for klass in hierarchy(project, cls)
        )
    return memo[key]  # type: ignore[return-value]


def record_defaults(project: "Project", cls: nodes.ClassDef) -> Dict[str, Constant]:
    """The fields of a dataclass (or NamedTuple) of the tree whose default is `None`, `True` or
    `False`, with that value: what its generated `__init__` assigns when no argument is given."""
    defaults: Dict[str, Constant] = {}
    for klass in reversed(list(hierarchy(project, cls))):
        for statement in klass.body:
            if isinstance(statement, nodes.AnnAssign) and isinstance(statement.target, nodes.AssignName):
                value = statement.value
                if isinstance(value, nodes.Const) and (value.value is None or isinstance(value.value, bool)):
                    defaults[statement.target.name] = Constant(value.value)
                else:
                    defaults.pop(statement.target.name, None)
    return defaults


# What these functions found, per project, for the modules it enters now (entering more can
# resolve a base that was unknown): the answers depend on the trees alone, which live as long.
_MEMOS: "weakref.WeakKeyDictionary[Project, Tuple[Optional[FrozenSet[str]], Dict[tuple, object]]]" = weakref.WeakKeyDictionary()


def _memo(project: "Project") -> Dict[tuple, object]:
    entry = _MEMOS.get(project)
    if entry is None or entry[0] is not project.entered:
        entry = (project.entered, {})
        _MEMOS[project] = entry
    return entry[1]


def hierarchy(project: "Project", cls: nodes.ClassDef) -> Iterator[nodes.ClassDef]:
    """`cls` and its bases of the tree, breadth first (close to Python's method resolution order
    for the single-inheritance hierarchies where it matters). A base is read wherever the tree
    defines it, in a module the flows enter or not: what a class derives from is its syntax, and
    a walk that asked while the base's module was not entered yet is kept into the rounds that
    enter it (`Project.enter` drops only walks that deferred into a module), so an answer that
    depended on the round would stay stale there."""
    pending, seen = [cls], set()
    while pending and len(seen) < _MAX_BASES:
        klass = pending.pop(0)
        if id(klass) in seen:
            continue
        seen.add(id(klass))
        yield klass
        for base in klass.bases:
            resolved = project.resolve_callable(project.qualified_name(base))
            if isinstance(resolved, nodes.ClassDef):
                pending.append(resolved)


def is_or_extends(project: "Project", qname: Optional[str], outside: FrozenSet[str]) -> bool:
    """Whether the class `qname` names is one of `outside` (classes outside the tree) or a class of
    the tree built over one (a library's `QFSDPParam(FSDPParam)` is an `FSDPParam`)."""
    if qname in outside:
        return True
    cls = class_named(project, qname) if qname else None
    return cls is not None and any(base in outside for base in _outside_bases(project, cls))


def optimizer_class(project: "Project", qname: Optional[str]) -> Optional[str]:
    """The class name where `qname` names a class of the tree built over an optimizer of torch
    (`class Muon(torch.optim.Optimizer)`, `class Lion(AdamW)`): its objects are optimizers over
    the parameters handed to them, as torch's own are. Else None."""
    if not qname:
        return None
    memo = _memo(project)
    key = ("optimizer", qname)
    if key not in memo:
        cls = class_named(project, qname)
        found = cls is not None and any(map(known_apis.optimizer_base, _outside_bases(project, cls)))
        memo[key] = cls.name if found and cls is not None else None
    return memo[key]  # type: ignore[return-value]


def _outside_bases(project: "Project", cls: nodes.ClassDef) -> Tuple[str, ...]:
    """The bases of the hierarchy that are not classes of the tree (`hierarchy`), by name."""
    found = []
    for klass in hierarchy(project, cls):
        for base in klass.bases:
            qname = project.qualified_name(base)
            if not isinstance(project.resolve_callable(qname), nodes.ClassDef) and qname != "builtins.object":
                found.append(qname or base.as_string())
    return tuple(found)


def _decorator_name(project: "Project", decorator: nodes.NodeNG) -> Optional[str]:
    if isinstance(decorator, nodes.Name) and decorator.name == "property":
        return "property"
    return project.qualified_name(decorator)
