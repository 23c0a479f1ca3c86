"""Facts about the whole linted tree: which module a name lives in, what each function does, and
which objects may be sharded anywhere. Computed once per run, queried by every rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Iterator, List, Optional, Set, Tuple, Union

from astroid import nodes

from fsdp_lint.analysis.flow import Flow, ShardEvent, Summary, scope_key
from fsdp_lint.analysis.names import relative_module
from fsdp_lint.analysis.values import Obj, Root, Value, path_covers

_IN_PROGRESS = object()
_MAX_DEPTH = 12


ModuleLoader = Callable[[str], Optional[nodes.Module]]


@dataclass(frozen=True)
class ClassFacts:
    """Attributes set to parameterised modules/parameters, and tied parameter paths (from `self`)."""

    param_attrs: Tuple[str, ...]
    ties: Tuple[Tuple[Tuple[str, ...], Tuple[str, ...]], ...]


class Project:
    def __init__(self, modules: List[nodes.Module], load: Optional[ModuleLoader] = None):
        """`load` parses a module of the tree that was left out of `modules` when a name resolves
        into it (the engine parses only the files that can matter, and the rest on demand)."""
        self.modules: Dict[str, nodes.Module] = {module.name: module for module in modules}
        self._load = load
        self._indexed: Set[str] = set()
        self._summaries: Dict[str, object] = {}
        self._scope_events: Dict[str, List[ShardEvent]] = {}
        self._root_events: Dict[Root, List[Obj]] = {}
        self._aliases: Dict[Root, List[Obj]] = {}
        self._attr_values: Dict[Tuple[Root, Tuple[str, ...]], List[Value]] = {}
        self._classes_by_key: Dict[str, nodes.ClassDef] = {}
        self._called_names: Dict[str, FrozenSet[str]] = {}
        self._class_facts: Dict[str, ClassFacts] = {}

    # ---- building the facts ---------------------------------------------------------------------

    def summary(self, func: nodes.FunctionDef) -> Optional[Summary]:
        key = scope_key(func)
        cached = self._summaries.get(key)
        if cached is _IN_PROGRESS:
            return None
        if cached is not None:
            return cached  # type: ignore[return-value]
        if len(self._summaries) > 200_000:
            return None
        self._summaries[key] = _IN_PROGRESS
        flow = Flow(self, func).run()
        self.record(flow)
        summary = flow.summary()
        self._summaries[key] = summary
        return summary

    def record(self, flow: Flow) -> None:
        self._scope_events[flow.key] = flow.events
        for event in flow.events:
            self._root_events.setdefault(event.target.root, []).append(event.target)

    def add_alias(self, root: Root, value: Obj) -> None:
        aliases = self._aliases.setdefault(root, [])
        if value not in aliases and value.root != root:
            aliases.append(value)

    def add_attr_value(self, root: Root, attrs: Tuple[str, ...], value: Value) -> None:
        values = self._attr_values.setdefault((root, attrs), [])
        if value not in values:
            values.append(value)

    # ---- queries ------------------------------------------------------------------------------------

    def events_of_scope(self, key: str) -> List[ShardEvent]:
        return self._scope_events.get(key, [])

    def attr_value(self, root: Root, attrs: Tuple[str, ...]) -> Optional[Value]:
        """The one value assigned to `root.attrs` anywhere in the tree, if there is exactly one."""
        values = self._attr_values.get((root, attrs), [])
        return values[0] if len(values) == 1 else None

    def equivalents(self, obj: Obj) -> Iterator[Obj]:
        """`obj` and every path it may also be reached by: the arguments bound to a parameter, the
        values assigned to an attribute of `self`, the object a module global was bound to."""
        seen = set()
        pending = [obj]
        while pending and len(seen) < 256:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            yield current
            for alias in self._aliases.get(current.root, ()):
                pending.append(Obj(alias.root, alias.attrs + current.attrs))
            for length in range(1, len(current.attrs) + 1):
                for value in self._attr_values.get((current.root, current.attrs[:length]), ()):
                    if isinstance(value, Obj):
                        pending.append(Obj(value.root, value.attrs + current.attrs[length:]))

    def may_be_sharded(self, obj: Obj) -> bool:
        """Whether some scope of the tree shards `obj` or an ancestor of it."""
        return any(
            path_covers(target, candidate)
            for candidate in self.equivalents(obj)
            for target in self._root_events.get(candidate.root, ())
        )

    def has_sharded_descendant(self, obj: Obj) -> bool:
        return any(
            path_covers(candidate, target) and len(target.attrs) > len(candidate.attrs)
            for candidate in self.equivalents(obj)
            for target in self._root_events.get(candidate.root, ())
        )

    def modules_holding_shards(self, globals_only: bool = False) -> Set[str]:
        """Modules that own an object which may be sharded (or hold a sharded module).

        The engine parses every file that imports from a module whose *module-level* objects may
        be sharded (any function returning one leaks it to callers), and runs the rules on the
        modules it parsed on demand that own any such object (a helper given a sharded model).
        Objects of functions and classes leak no further: parameters map to the caller's
        arguments, and objects a callee creates are new at each call site.
        """
        found: Set[str] = set()
        for root, attrs in [(root, ()) for root in set(self._root_events) | set(self._aliases)] + list(self._attr_values):
            module = root[0].split(":", 1)[0]
            if module in found or (globals_only and ":" in root[0]):
                continue
            if self.may_hold_shards(Obj(root, attrs)):
                found.add(module)
        return found

    def may_hold_shards(self, obj: Obj) -> bool:
        return self.may_be_sharded(obj) or self.has_sharded_descendant(obj)

    def called_names(self, func: nodes.FunctionDef, depth: int = 0) -> FrozenSet[str]:
        """The last name of every call `func` makes, and of the calls made by the functions of the
        tree it calls (a few levels deep): what a helper may do, by name (`init_weights`, `load`)."""
        key = scope_key(func)
        cached = self._called_names.get(key)
        if cached is not None:
            return cached
        self._called_names[key] = frozenset()  # recursion guard
        found: Set[str] = set()
        for call in func.nodes_of_class(nodes.Call):
            callee = call.func
            name = callee.attrname if isinstance(callee, nodes.Attribute) else getattr(callee, "name", None)
            if name:
                found.add(name)
            if depth < 3 and isinstance(callee, nodes.Name):
                from fsdp_lint.analysis.names import qualified_name

                target = self.resolve_callable(self.canonical(qualified_name(callee)))
                if isinstance(target, nodes.FunctionDef):
                    found |= self.called_names(target, depth + 1)
        result = frozenset(found)
        self._called_names[key] = result
        return result

    def class_facts(self, qname: Optional[str]) -> "ClassFacts":
        """What a class of the tree (with its tree bases) builds in its methods: the attributes it
        sets to parameterised torch leaves or `nn.Parameter`s, and the parameters it ties together
        (`self.output.weight = self.tok_embeddings.weight`). Empty for classes outside the tree."""
        if not qname:
            return ClassFacts((), ())
        cached = self._class_facts.get(qname)
        if cached is not None:
            return cached
        self._class_facts[qname] = ClassFacts((), ())  # recursion guard
        cls = self.resolve_callable(qname)
        own: List[str] = []
        ties: List[Tuple[Tuple[str, ...], Tuple[str, ...]]] = []
        if isinstance(cls, nodes.ClassDef):
            from fsdp_lint.analysis.known_apis import PARAMETERISED_LEAVES
            from fsdp_lint.analysis.names import qualified_name

            for klass in [cls] + self._tree_bases(cls):
                for assign in klass.nodes_of_class(nodes.Assign):
                    for target in assign.targets:
                        path = _self_path(target)
                        if path is None:
                            continue
                        value = assign.value
                        if isinstance(value, nodes.Call) and len(path) == 1:
                            called = self.canonical(qualified_name(value.func)) or ""
                            if called.startswith("torch.nn.") and called.rsplit(".", 1)[-1] in PARAMETERISED_LEAVES:
                                own.append(path[0])
                        tied = _self_path(value)
                        if tied is not None and len(path) > 1 and len(tied) > 1 and path != tied:
                            ties.append((path, tied))
        facts = ClassFacts(tuple(dict.fromkeys(own)), tuple(ties))
        self._class_facts[qname] = facts
        return facts

    def imported_tree_modules(self, module: nodes.Module, depth: int = 2) -> List[nodes.Module]:
        """`module` and the modules of the tree it imports, and theirs, `depth` levels deep."""
        found: Dict[str, nodes.Module] = {module.name: module}
        frontier = [module]
        for _ in range(depth):
            following = []
            for current in frontier:
                for name in _imported_names(current):
                    imported = self._split_module(name)[0]
                    if imported is not None and imported.name not in found:
                        found[imported.name] = imported
                        following.append(imported)
            frontier = following
        return list(found.values())

    def class_has_blocks(self, qname: Optional[str]) -> bool:
        """Whether a class of the tree holds repeated blocks (an `nn.ModuleList`, `ModuleDict` or
        `Sequential` attribute), or is a pretrained transformer: the models that need per-block units."""
        if qname == "transformers.PreTrainedModel":
            return True
        cls = self.resolve_callable(qname)
        if not isinstance(cls, nodes.ClassDef):
            return False
        from fsdp_lint.analysis.known_apis import BLOCK_CONTAINERS
        from fsdp_lint.analysis.names import qualified_name

        for klass in [cls] + self._tree_bases(cls):
            for assign in klass.nodes_of_class(nodes.Assign):
                value = assign.value
                if isinstance(value, nodes.Call) and self.canonical(qualified_name(value.func)) in BLOCK_CONTAINERS:
                    if any(isinstance(t, nodes.AssignAttr) for t in assign.targets):
                        return True
        return False

    # ---- name resolution across modules -----------------------------------------------------------

    def canonical(self, qname: Optional[str], depth: int = 0) -> Optional[str]:
        """Follow re-exports through modules of the tree (`pkg/__init__.py: from .x import f`)."""
        if not qname or depth > _MAX_DEPTH:
            return qname
        module, rest = self._split_module(qname)
        if module is None or not rest:
            return qname
        for binding in module.locals.get(rest[0], ())[-1:]:
            if isinstance(binding, nodes.ImportFrom):
                base = relative_module(module, binding.modname, binding.level)
                for imported, alias in binding.names:
                    if (alias or imported) == rest[0]:
                        return self.canonical(".".join([base, imported] + rest[1:]), depth + 1)
            if isinstance(binding, nodes.Import):
                for imported, alias in binding.names:
                    if alias == rest[0]:
                        return self.canonical(".".join([imported] + rest[1:]), depth + 1)
        return qname

    def _split_module(self, qname: str) -> Tuple[Optional[nodes.Module], List[str]]:
        parts = qname.split(".")
        for index in range(len(parts), 0, -1):
            module = self.module(".".join(parts[:index]))
            if module is not None:
                return module, parts[index:]
        return None, parts

    def module(self, name: str) -> Optional[nodes.Module]:
        module = self.modules.get(name)
        if module is None and self._load is not None:
            module = self._load(name)
            if module is not None:
                self.modules[name] = module
        return module

    def resolve_callable(self, qname: Optional[str]) -> Optional[Union[nodes.FunctionDef, nodes.ClassDef]]:
        """The function or class of the tree that a qualified name denotes."""
        if not qname:
            return None
        module, rest = self._split_module(qname)
        if module is None or not rest or len(rest) > 2:
            return None
        found = _last_definition(module, rest[0])
        if len(rest) == 2:
            return _method(found, rest[1]) if isinstance(found, nodes.ClassDef) else None
        return found

    def resolve_method(self, receiver: Obj, self_root: Optional[Root], method: str) -> Optional[nodes.FunctionDef]:
        """`receiver.method` when the receiver's class is known: `self`, or a constructed object."""
        cls: Optional[nodes.ClassDef] = None
        if receiver.root == self_root and not receiver.attrs and self_root is not None:
            cls = self._class_of_key(self_root[0])
        elif receiver.cls:
            found = self.resolve_callable(receiver.cls)
            cls = found if isinstance(found, nodes.ClassDef) else None
        if cls is None:
            return None
        for klass in [cls] + self._tree_bases(cls):
            found = _method(klass, method)
            if found is not None:
                return found
        return None

    def _class_of_key(self, key: str) -> Optional[nodes.ClassDef]:
        if key not in self._classes_by_key and len(self._indexed) < len(self.modules):
            for name, module in list(self.modules.items()):
                if name not in self._indexed:
                    self._indexed.add(name)
                    for cls in module.nodes_of_class(nodes.ClassDef):
                        self._classes_by_key[scope_key(cls)] = cls
        return self._classes_by_key.get(key)

    def _tree_bases(self, cls: nodes.ClassDef) -> List[nodes.ClassDef]:
        from fsdp_lint.analysis.names import qualified_name

        bases = []
        for base in cls.bases:
            found = self.resolve_callable(self.canonical(qualified_name(base)))
            if isinstance(found, nodes.ClassDef) and found is not cls:
                bases.append(found)
        return bases


def scopes_of(module: nodes.Module) -> Iterator[nodes.NodeNG]:
    """The module's top level, then every function and method (nested ones too)."""
    yield module
    yield from module.nodes_of_class(nodes.FunctionDef)


def _imported_names(module: nodes.Module) -> Iterator[str]:
    """Dotted names a module imports (`import a.b`, `from a import b` gives `a` and `a.b`)."""
    for node in module.nodes_of_class((nodes.Import, nodes.ImportFrom)):
        if isinstance(node, nodes.Import):
            yield from (name for name, _ in node.names)
        else:
            base = relative_module(module, node.modname, node.level)
            yield base
            yield from (f"{base}.{name}" for name, _ in node.names if name != "*")


def _self_path(expr: nodes.NodeNG) -> Optional[Tuple[str, ...]]:
    """`self.a.b` -> ("a", "b"), for attribute chains on the method's `self`."""
    attrs: List[str] = []
    while isinstance(expr, (nodes.Attribute, nodes.AssignAttr)):
        attrs.append(expr.attrname)
        expr = expr.expr
    if isinstance(expr, nodes.Name) and expr.name == "self" and attrs:
        return tuple(reversed(attrs))
    return None


def _last_definition(module: nodes.Module, name: str) -> Optional[Union[nodes.FunctionDef, nodes.ClassDef]]:
    bindings = module.locals.get(name, ())
    if bindings and isinstance(bindings[-1], (nodes.FunctionDef, nodes.ClassDef)):
        return bindings[-1]
    return None


def _method(cls: Optional[nodes.ClassDef], name: str) -> Optional[nodes.FunctionDef]:
    if cls is None:
        return None
    bindings = cls.locals.get(name, ())
    if bindings and isinstance(bindings[-1], nodes.FunctionDef):
        return bindings[-1]
    return None
