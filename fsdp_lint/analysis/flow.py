"""The flow interpreter: one pass over a function body in program order.

Statements run in order, both arms of a branch run one after the other (a "may" analysis), loop
bodies run once. Each expression gets an abstract value (`fsdp_lint.analysis.values`), cached per
node so that rules can ask for it without re-running side effects. Calls of functions defined in
the linted tree apply that function's summary (what it shards, what it returns), so sharding
helpers in other modules count at the point where they are called.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, List, Optional, Set, Tuple, Union

from astroid import nodes

from fsdp_lint.analysis import known_apis
from fsdp_lint.analysis.names import FULLY_SHARD, PARTIAL
from fsdp_lint.analysis.values import (
    UNKNOWN,
    BoundMethod,
    Container,
    Deferred,
    Fresh,
    Iterable,
    Obj,
    Optimizer,
    Params,
    Root,
    ShardFunction,
    StateDict,
    Value,
    objects_in,
    path_covers,
)

if TYPE_CHECKING:
    from fsdp_lint.analysis.project import Project


def scope_key(scope: nodes.NodeNG) -> str:
    """A key for a scope that is stable across processes (used in roots, caches and --jobs)."""
    module = scope.root()
    if scope is module:
        return module.name
    return f"{module.name}:{scope.qname()}:{scope.lineno}"


@dataclass
class ShardEvent:
    target: Obj
    node: nodes.NodeNG
    seq: int = 0
    # Made by a helper under a condition of its own (`if shard: fully_shard(m)`): it may not happen.
    guarded: bool = False


@dataclass
class AttrAssignment:
    """`owner.attr = value` at `node` (the target), with the flow's sequence number at that point."""

    node: nodes.AssignAttr
    owner: Value
    attr: str
    value: Value
    value_node: Optional[nodes.NodeNG]
    seq: int


@dataclass
class Summary:
    """What a call of a function does, in terms of its parameters."""

    key: str
    param_names: List[str]
    param_roots: Dict[str, Root]
    self_root: Optional[Root]
    events: List[ShardEvent] = field(default_factory=list)
    escaped: Set[Root] = field(default_factory=set)
    returns: Value = UNKNOWN


class CallListener:
    """What a rule sees of a flow: each call before it takes effect, and the end of the function."""

    def on_call(self, node: nodes.Call, flow: "Flow") -> None:  # pragma: no cover - interface
        pass

    def on_function_end(self, flow: "Flow") -> None:  # pragma: no cover - interface
        pass


class Flow:
    """The state of one walk over one scope (a function, or a module's top-level statements)."""

    def __init__(self, project: "Project", scope: nodes.NodeNG, listener: Optional[CallListener] = None):
        self.project = project
        self.scope = scope
        self.key = scope_key(scope)
        self.listener = listener
        self.env: Dict[str, Value] = {}
        self.attr_env: Dict[Tuple[Root, Tuple[str, ...]], Value] = {}
        self.values: Dict[nodes.NodeNG, Value] = {}
        self.events: List[ShardEvent] = []
        self.optimizers: List[Tuple[int, Optimizer]] = []
        self.unsharded: List[Obj] = []
        self.escaped: Set[Root] = set()
        self.returns: List[Value] = []
        self.conditions: List[Tuple[nodes.NodeNG, bool]] = []
        self.attr_assignments: List[AttrAssignment] = []
        # The class each local object was constructed from, the objects built under a meta-device
        # context (`with torch.device("meta")`), and the objects stored into an attribute, item or
        # container (so that code elsewhere may reach them).
        self.classes: Dict[Root, str] = {}
        self.meta_roots: Set[Root] = set()
        self.stored: Set[Root] = set()
        self._meta_depth = 0
        self._generations: Dict[str, int] = {}
        self.self_root: Optional[Root] = None
        self.self_class: Optional[nodes.ClassDef] = None
        self.param_roots: Dict[str, Root] = {}
        self.param_names: List[str] = []
        if isinstance(scope, nodes.FunctionDef):
            self._bind_parameters(scope)

    # ---- entry points -------------------------------------------------------------------------

    def run(self) -> "Flow":
        body = self.scope.body
        self._block(body)
        if self.listener is not None:
            self.listener.on_function_end(self)
        return self

    def summary(self) -> Summary:
        returned = next((v for v in self.returns if not isinstance(v, type(UNKNOWN))), UNKNOWN)
        return Summary(self.key, self.param_names, self.param_roots, self.self_root, list(self.events), set(self.escaped), returned)

    # ---- queries for rules ------------------------------------------------------------------------

    def value(self, node: nodes.NodeNG) -> Value:
        return self.values.get(node, UNKNOWN)

    def is_local(self, root: Root) -> bool:
        return root[0] == self.key and root not in self.param_roots.values() and root != self.self_root

    def sharded_here(self, obj: Obj, before: Optional[int] = None) -> Optional[ShardEvent]:
        """The earlier shard event in this walk that covers `obj` (it or an ancestor), if any;
        with `before`, only events whose sequence number is lower (program order at that point)."""
        for event in self.events:
            if (before is None or event.seq < before) and path_covers(event.target, obj):
                return event
        return None

    def may_be_sharded(self, obj: Obj, before: Optional[int] = None) -> bool:
        """Whether `obj` may lie in a sharded tree at this point of the walk (or at sequence
        number `before`, for facts recorded earlier in the walk).

        Local objects follow program order; parameters, `self` attributes and globals use the
        project's facts, unless this very scope shards them (then program order decides).
        """
        if self.sharded_here(obj, before) is not None:
            return True
        if self.is_local(obj.root):
            return False
        if any(event.target.root == obj.root for event in self.project.events_of_scope(self.key)):
            return False
        return self.project.may_be_sharded(obj)

    def may_hold_shards(self, obj: Obj) -> bool:
        """Whether `obj` or any module inside it may be sharded (its state dict holds DTensors)."""
        if self.may_be_sharded(obj) or self.has_sharded_descendant_here(obj):
            return True
        return not self.is_local(obj.root) and self.project.has_sharded_descendant(obj)

    def holds_shards_known_here(self, obj: Obj) -> bool:
        """Like `may_hold_shards`, but for a parameter of this function only when this scope itself
        shards it: a helper's parameter is not assumed sharded because some caller somewhere passes
        a sharded module (that caller may only do so on a path the helper's own caller guards)."""
        if self.sharded_here(obj) is not None or self.has_sharded_descendant_here(obj):
            return True
        if obj.root in self.param_roots.values():
            return False
        return self.may_hold_shards(obj)

    def provably_unsharded(self, obj: Obj) -> bool:
        """Whether `obj` holds no DTensor yet: nothing in it is sharded at this point, and it is
        either local to this scope or a parameter that this scope shards later (program order)."""
        if self.may_hold_shards(obj):
            return False
        return self.is_local(obj.root) or any(e.target.root == obj.root for e in self.project.events_of_scope(self.key))

    def explicitly_unsharded(self, obj: Obj) -> bool:
        return any(path_covers(u, obj) or path_covers(obj, u) for u in self.unsharded)

    def has_sharded_descendant_here(self, obj: Obj) -> bool:
        return any(path_covers(obj, e.target) and len(e.target.attrs) > len(obj.attrs) for e in self.events)

    def qualified_name(self, expr: nodes.NodeNG) -> Optional[str]:
        return self.project.qualified_name(expr)

    def is_fully_shard_call(self, node: nodes.Call) -> bool:
        return self.shards(self.qualified_name(node.func)) or isinstance(self.value(node.func), ShardFunction)

    def shards(self, qname: Optional[str]) -> bool:
        """Whether `qname` is `fully_shard` or a sharding function the project declared."""
        return qname in FULLY_SHARD or self.project.apis.shards(qname)

    # ---- binding ---------------------------------------------------------------------------------

    def _bind_parameters(self, func: nodes.FunctionDef) -> None:
        args = func.args
        positional = list(args.posonlyargs or []) + list(args.args or [])
        is_method = isinstance(func.parent, nodes.ClassDef) and not _is_staticmethod(func)
        for index, arg in enumerate(positional + list(args.kwonlyargs or [])):
            if index == 0 and is_method and not _is_classmethod(func):
                self.self_root = (scope_key(func.parent), "self", 0)
                self.self_class = func.parent
                self.env[arg.name] = Obj(self.self_root)
                self.param_names.append(arg.name)
                continue
            root = (self.key, arg.name, 0)
            self.param_roots[arg.name] = root
            self.param_names.append(arg.name)
            self.env[arg.name] = Obj(root)

    def _next_seq(self) -> int:
        return len(self.events) + len(self.optimizers)

    def _new_root(self, name: str) -> Root:
        if self.scope is self.scope.root():
            return (self.key, name, 0)
        generation = self._generations.get(name, 0) + 1
        self._generations[name] = generation
        return (self.key, name, generation)

    def seq(self) -> int:
        """The sequence number the next shard event or optimizer would get (program order)."""
        return self._next_seq()

    def _materialise(self, value: Value, name: Union[str, nodes.NodeNG]) -> Value:
        """A fresh object bound to `name` (a variable, or the expression passed as an argument:
        named by its source text, found only when needed, which is rarely)."""
        if isinstance(value, Fresh):
            obj = Obj(self._new_root(name if isinstance(name, str) else name.as_string()), cls=value.cls)
            if value.cls:
                self.classes[obj.root] = value.cls
            if self._meta_depth:
                self.meta_roots.add(obj.root)
            return obj
        return value

    def _bind(self, target: nodes.NodeNG, value: Value) -> None:
        if isinstance(target, nodes.AssignName):
            value = self._materialise(value, target.name)
            self.env[target.name] = value
            if self.scope is self.scope.root() and isinstance(value, Obj) and value.root != (self.key, target.name, 0):
                self.project.add_alias((self.key, target.name, 0), value)
        elif isinstance(target, (nodes.Tuple, nodes.List)):
            if isinstance(value, Params) and len(target.elts) == 2:
                value = Container((UNKNOWN, value))  # `for name, param in m.named_parameters()`
            items = value.items if isinstance(value, Container) and len(value.items) == len(target.elts) else None
            for index, element in enumerate(target.elts):
                if isinstance(element, nodes.Starred):
                    self._bind(element.value, UNKNOWN)
                else:
                    self._bind(element, items[index] if items else UNKNOWN)
        elif isinstance(target, nodes.AssignAttr):
            owner = self._eval(target.expr)
            assigned = target.parent.value if isinstance(target.parent, (nodes.Assign, nodes.AnnAssign)) else None
            self.attr_assignments.append(AttrAssignment(target, owner, target.attrname, value, assigned, self._next_seq()))
            self._store(value)
            if isinstance(owner, Obj):
                value = self._materialise(value, f"{owner.display}.{target.attrname}")
                self.attr_env[(owner.root, owner.attrs + (target.attrname,))] = value
                if owner.root == self.self_root or not self.is_local(owner.root):
                    self.project.add_attr_value(owner.root, owner.attrs + (target.attrname,), value)
        elif isinstance(target, nodes.Subscript):
            self._store(value)
            self._eval(target.slice)
            container = self._eval(target.value)
            if isinstance(target.value, nodes.Name):
                if isinstance(container, Container):
                    self.env[target.value.name] = Container(container.items + (value,))
                elif isinstance(container, StateDict):
                    self.env[target.value.name] = UNKNOWN
        elif isinstance(target, nodes.Starred):
            self._bind(target.value, UNKNOWN)

    def _store(self, value: Value) -> None:
        for obj in objects_in(value):
            self.stored.add(obj.root)

    # ---- statements ------------------------------------------------------------------------------

    def _block(self, statements: List[nodes.NodeNG]) -> None:
        guards = 0
        for statement in statements:
            self._statement(statement)
            if isinstance(statement, nodes.If) and _returns(statement.body) and not statement.orelse:
                # `if test: return` - the rest of the block runs only where `test` is false.
                self.conditions.append((statement.test, False))
                guards += 1
        if guards:
            del self.conditions[-guards:]

    def _statement(self, node: nodes.NodeNG) -> None:
        if isinstance(node, (nodes.FunctionDef, nodes.ClassDef, nodes.Import, nodes.ImportFrom)):
            return
        if isinstance(node, nodes.Assign):
            value = self._eval(node.value)
            for target in node.targets:
                self._bind(target, value)
        elif isinstance(node, (nodes.AnnAssign, nodes.AugAssign)):
            if node.value is not None:
                value = self._eval(node.value)
                if isinstance(node, nodes.AnnAssign):
                    self._bind(node.target, value)
        elif isinstance(node, nodes.Expr):
            self._eval(node.value)
        elif isinstance(node, nodes.Return):
            returned = self._eval(node.value) if node.value is not None else UNKNOWN
            self._store(returned)
            self.returns.append(returned)
        elif isinstance(node, nodes.If):
            self._eval(node.test)
            self.conditions.append((node.test, True))
            self._block(node.body)
            self.conditions[-1] = (node.test, False)
            self._block(node.orelse)
            self.conditions.pop()
        elif isinstance(node, (nodes.For, nodes.AsyncFor)):
            iterated = self._eval(node.iter)
            self._bind(node.target, _element_of(iterated))
            self._block(node.body)
            self._block(node.orelse)
        elif isinstance(node, nodes.While):
            self._eval(node.test)
            self.conditions.append((node.test, True))
            self._block(node.body)
            self.conditions.pop()
            self._block(node.orelse)
        elif isinstance(node, (nodes.With, nodes.AsyncWith)):
            meta = 0
            for item, alias in node.items:
                value = self._eval(item)
                meta += known_apis.is_meta_device_context(item, self.qualified_name)
                if alias is not None:
                    self._bind(alias, value)
            self._meta_depth += meta
            self._block(node.body)
            self._meta_depth -= meta
        elif isinstance(node, _TRY_NODES):
            self._block(node.body)
            for handler in node.handlers:
                self._block(handler.body)
            self._block(node.orelse)
            self._block(node.finalbody)
        elif isinstance(node, nodes.Match):
            self._eval(node.subject)
            for case in node.cases:
                self._block(case.body)
        else:
            for child in node.get_children():
                if isinstance(child, nodes.NodeNG) and not child.is_statement:
                    self._eval(child)

    # ---- expressions -----------------------------------------------------------------------------

    def _eval(self, node: Optional[nodes.NodeNG]) -> Value:
        if node is None:
            return UNKNOWN
        value = self._compute(node)
        self.values[node] = value
        return value

    def _compute(self, node: nodes.NodeNG) -> Value:
        if isinstance(node, nodes.Name):
            return self._name(node)
        if isinstance(node, nodes.Attribute):
            return self._attribute(node)
        if isinstance(node, nodes.Const):  # the commonest leaf: no children, nothing to track
            return UNKNOWN
        if isinstance(node, nodes.Subscript):
            base = self._eval(node.value)
            self._eval(node.slice)
            if isinstance(base, Obj):
                return base.child("*")
            if isinstance(base, Container) and base.items and isinstance(node.slice, nodes.Const):
                return _container_item(base, node.slice.value)
            return UNKNOWN
        if isinstance(node, nodes.Call):
            return self._call(node)
        if isinstance(node, (nodes.List, nodes.Tuple, nodes.Set)):
            return Container(tuple(self._eval(element) for element in node.elts))
        if isinstance(node, nodes.Dict):
            items = []
            for key, val in node.items:
                key_value = self._eval(key)
                items.append(self._eval(val))
                if isinstance(key, nodes.DictUnpack) or key_value is None:
                    continue
            return Container(tuple(items))
        if isinstance(node, (nodes.ListComp, nodes.GeneratorExp, nodes.SetComp)):
            for generator in node.generators:
                self._bind(generator.target, _element_of(self._eval(generator.iter)))
                for condition in generator.ifs:
                    self._eval(condition)
            element = self._eval(node.elt)
            return element if isinstance(element, Params) else Iterable(element)
        if isinstance(node, nodes.DictComp):
            for generator in node.generators:
                self._bind(generator.target, _element_of(self._eval(generator.iter)))
            self._eval(node.key)
            self._eval(node.value)
            return UNKNOWN
        if isinstance(node, nodes.Starred):
            return self._eval(node.value)
        if isinstance(node, nodes.NamedExpr):
            value = self._eval(node.value)
            self._bind(node.target, value)
            return value
        if isinstance(node, nodes.IfExp):
            self._eval(node.test)
            self.conditions.append((node.test, True))
            body = self._eval(node.body)
            self.conditions[-1] = (node.test, False)
            orelse = self._eval(node.orelse)
            self.conditions.pop()
            return body if isinstance(body, Obj) else orelse
        if isinstance(node, (nodes.Lambda,)):
            return UNKNOWN
        if isinstance(node, nodes.Await):
            return self._eval(node.value)
        for child in node.get_children():
            self._eval(child)
        return UNKNOWN

    def _name(self, node: nodes.Name) -> Value:
        if node.name in self.env:
            return self.env[node.name]
        binding = self.project.binding(node)
        if binding is None:
            # Undefined here (a star import, a name injected at run time): still one object.
            return UNKNOWN if node.name in _BUILTINS else Obj((scope_key(node.root()), node.name, 0))
        if _is_builtin(binding):
            return UNKNOWN
        scope = binding.scope()
        if isinstance(binding, nodes.AssignName) and isinstance(scope, nodes.Module):
            return Obj((scope_key(scope), node.name, 0))
        if isinstance(binding, (nodes.Import, nodes.ImportFrom, nodes.FunctionDef, nodes.ClassDef)):
            return UNKNOWN
        if isinstance(binding, nodes.AssignName) and isinstance(binding.parent, nodes.Assign):
            if _is_shard_partial(binding.parent.value, self):
                return ShardFunction()
        return UNKNOWN

    def _attribute(self, node: nodes.Attribute) -> Value:
        base = self._eval(node.expr)
        if isinstance(base, Obj):
            key = (base.root, base.attrs + (node.attrname,))
            if key in self.attr_env:
                return self.attr_env[key]
            known = self.project.attr_value(base.root, key[1])
            if known is not None and not isinstance(known, Obj):
                return known
            if node.attrname == "forward":
                return BoundMethod(base, "forward")
            return base.child(node.attrname)
        return UNKNOWN

    def _call(self, node: nodes.Call) -> Value:
        func_value = self._eval(node.func)
        args = [self._materialise(self._eval(arg), arg) for arg in node.args]
        keywords = {kw.arg: self._materialise(self._eval(kw.value), kw.value) for kw in node.keywords or []}
        if self.listener is not None:
            self.listener.on_call(node, self)
        return self._apply_call(node, func_value, args, keywords)

    def _apply_call(self, node: nodes.Call, func_value: Value, args: List[Value], keywords: Dict[Optional[str], Value]) -> Value:
        func = node.func
        qname = self.qualified_name(func)
        first = args[0] if args else keywords.get("module", UNKNOWN)
        if self.shards(qname) or isinstance(func_value, ShardFunction):
            for target in objects_in(self._materialise(first, "<module>")):
                self.events.append(ShardEvent(target, node, self._next_seq(), guarded=bool(self.conditions)))
            return first
        if qname in PARTIAL and args and self.shards(self.qualified_name(node.args[0])):
            return ShardFunction()
        if isinstance(func, nodes.Attribute) and isinstance(self.value(func.expr), (Obj, Optimizer)):
            return self._method_call(node, func.attrname, self.value(func.expr), args, keywords)
        optimizer = known_apis.optimizer_class(qname) or self.project.apis.optimizer(qname)
        if optimizer is not None:
            params = args[0] if args else keywords.get("params", UNKNOWN)
            owners = _param_owners(params)
            if owners:
                result = Optimizer(owners, node, optimizer)
                self.optimizers.append((self._next_seq(), result))
                return result
            return UNKNOWN
        getter = known_apis.state_dict_getter(qname)
        if getter is not None:
            return self._state_dict_getter(node, getter, args, keywords)
        if qname in known_apis.IDENTITY_FUNCTIONS:
            return first
        if qname == "copy.deepcopy":
            return Fresh(first.cls if isinstance(first, Obj) else None)
        if isinstance(func, nodes.Name) and func.name in _BUILTINS and _is_builtin(self.project.binding(func)):
            return _builtin_call(func.name, args)
        target = self.project.callable_for_flow(qname)
        if isinstance(target, Deferred):
            return self._defer(node, target.module, None, args, keywords)
        if isinstance(target, nodes.FunctionDef):
            return self._apply_summary(node, target, None, args, keywords)
        if isinstance(target, nodes.ClassDef):
            return Fresh(qname)
        if qname and qname.startswith(known_apis.LEAF_MODULE_PREFIX) and qname.rsplit(".", 1)[-1][:1].isupper():
            return Fresh(qname)
        if isinstance(func, nodes.Attribute) and func.attrname in known_apis.PRETRAINED_FACTORIES and qname and qname.startswith("transformers."):
            return Fresh("transformers.PreTrainedModel")
        self._escape(args, keywords)
        return Fresh(None)

    def _method_call(self, node: nodes.Call, method: str, receiver: Value, args: List[Value], keywords: Dict[Optional[str], Value]) -> Value:
        if isinstance(receiver, Optimizer):
            return StateDict(receiver) if method == "state_dict" else UNKNOWN
        assert isinstance(receiver, Obj)
        if method in ("parameters", "named_parameters"):
            return Params(receiver)
        if method == "state_dict":
            own = self.project.resolve_method(receiver, self.self_root, method, self.self_class)
            if isinstance(own, Deferred):
                return self._defer(node, own.module, receiver, args, keywords)
            if own is not None:  # a class of the tree with its own `state_dict` (a trainer's State)
                return self._apply_summary(node, own, receiver, args, keywords)
            return StateDict(receiver)
        if method == "unshard":
            self.unsharded.append(receiver)
            return UNKNOWN
        if method == "reshard":
            self.unsharded = [u for u in self.unsharded if not path_covers(receiver, u)]
            return UNKNOWN
        if method in ("modules", "children", "values"):
            return Iterable(receiver.child("*"))
        if method in ("named_modules", "named_children", "items"):
            return Iterable(Container((UNKNOWN, receiver.child("*"))))
        if method in known_apis.SELF_RETURNING_METHODS:
            return receiver
        target = self.project.resolve_method(receiver, self.self_root, method, self.self_class)
        if isinstance(target, Deferred):
            return self._defer(node, target.module, receiver, args, keywords)
        if target is not None:
            return self._apply_summary(node, target, receiver, args, keywords)
        origin = self.project.origin(receiver.root) if not receiver.attrs else None
        if origin is not None:  # its class, unknown until that module is entered, may define `method`
            return self._defer(node, origin, receiver, args, keywords)
        if method not in known_apis.INERT_METHODS:
            self.escaped.add(receiver.root)
            self._escape(args, keywords)
        return Fresh(None)

    def _state_dict_getter(self, node: nodes.Call, getter: str, args: List[Value], keywords: Dict[Optional[str], Value]) -> Value:
        options = next((kw.value for kw in node.keywords or [] if kw.arg == "options"), None)
        if options is None and len(node.args) > (2 if getter == "get_state_dict" or getter == "get_optimizer_state_dict" else 1):
            options = node.args[-1]
        if options is not None and not _options_keep_shards(options):
            return UNKNOWN
        module = args[0] if args else keywords.get("model", UNKNOWN)
        if getter == "get_optimizer_state_dict" and len(args) > 1 and isinstance(args[1], Optimizer):
            return StateDict(args[1])
        if isinstance(module, Obj):
            if getter == "get_state_dict":
                optim = args[1] if len(args) > 1 else keywords.get("optimizers", UNKNOWN)
                return Container((StateDict(module),) + ((StateDict(optim),) if isinstance(optim, Optimizer) else ()))
            return StateDict(module)
        return UNKNOWN

    def _escape(self, args: List[Value], keywords: Dict[Optional[str], Value]) -> None:
        for value in list(args) + list(keywords.values()):
            for obj in objects_in(value):
                self.escaped.add(obj.root)
            if isinstance(value, Params):
                self.escaped.add(value.owner.root)

    # ---- calls into the linted tree -----------------------------------------------------------------

    def _defer(self, node: nodes.Call, module: str, receiver: Optional[Obj], args: List[Value], keywords: Dict[Optional[str], Value]) -> Value:
        """A call into a module the flows do not enter: unknown code, as for a name outside the
        tree, except that the result is an object of its own at once (so that any use of it,
        `build().model` or `for m in build()`, lands on a root the engine can ask about)."""
        self._escape(args, keywords)
        if receiver is not None:
            self.escaped.add(receiver.root)
        result = self._materialise(Fresh(None), f"<call {node.lineno}:{node.col_offset}>")
        assert isinstance(result, Obj)
        self.project.defer(module, list(args) + list(keywords.values()) + ([receiver] if receiver is not None else []), result.root)
        return result

    def _apply_summary(self, node: nodes.Call, func: nodes.FunctionDef, receiver: Optional[Obj], args: List[Value], keywords: Dict[Optional[str], Value]) -> Value:
        summary = self.project.summary(func)
        if summary is None:
            self._escape(args, keywords)
            if receiver is not None:
                self.escaped.add(receiver.root)
            return Fresh(None)
        bound: Dict[Root, Value] = {}
        names = summary.param_names[1:] if summary.self_root is not None else summary.param_names
        for name, value in zip(names, args):
            bound[summary.param_roots[name]] = value
        for name, value in keywords.items():
            if name in summary.param_roots:
                bound[summary.param_roots[name]] = value
        if summary.self_root is not None and receiver is not None:
            bound[summary.self_root] = receiver
        for root, value in bound.items():
            if isinstance(value, Obj) and root != summary.self_root:
                self.project.add_alias(root, value)
        mapper = _RootMapper(bound, summary.key, self.key, node, self.project)
        for event in summary.events:
            target = mapper.obj(event.target)
            if target is not None:
                self.events.append(ShardEvent(target, node, self._next_seq(), guarded=event.guarded))
        for root in summary.escaped:
            mapped = bound.get(root)
            for obj in objects_in(mapped) if mapped is not None else ():
                self.escaped.add(obj.root)
        result = mapper.value(summary.returns, node)
        if isinstance(result, Optimizer):
            self.optimizers.append((self._next_seq(), result))
        return result if not isinstance(result, type(UNKNOWN)) else Fresh(None)


class _RootMapper:
    """Rewrites values of a callee's summary into the caller's terms (parameters -> arguments)."""

    def __init__(self, bound: Dict[Root, Value], callee_key: str, caller_key: str, call: nodes.Call, project: "Project"):
        self.bound = bound
        self.project = project
        self.callee_key = callee_key
        self.caller_key = caller_key
        # Objects the callee creates are new at each call: `a = build(); b = build()` are two models.
        self.instance = -(1 + (call.lineno or 0) * 10_000 + (call.col_offset or 0))

    def obj(self, obj: Obj) -> Optional[Obj]:
        if obj.root not in self.bound:
            if obj.root[0] == self.callee_key:
                mapped = Obj((self.caller_key, obj.root[1], self.instance), obj.attrs, obj.cls)
                self.project.inherit_origin(mapped.root, obj.root)
                return mapped
            return obj
        value = self.bound[obj.root]
        if isinstance(value, Obj):
            return Obj(value.root, value.attrs + obj.attrs, value.cls if not obj.attrs else None)
        return None

    def value(self, value: Value, call: nodes.Call) -> Value:
        if isinstance(value, Obj):
            mapped = self.obj(value)
            return mapped if mapped is not None else UNKNOWN
        if isinstance(value, Params):
            owner = self.obj(value.owner)
            return Params(owner) if owner is not None else UNKNOWN
        if isinstance(value, Optimizer):
            over = tuple(o for o in (self.obj(obj) for obj in value.over) if o is not None)
            return Optimizer(over, call, value.cls_name) if over else UNKNOWN
        if isinstance(value, StateDict):
            owner = self.value(value.owner, call)
            return StateDict(owner) if isinstance(owner, (Obj, Optimizer)) else UNKNOWN
        if isinstance(value, Container):
            return Container(tuple(self.value(item, call) for item in value.items))
        return value


_BUILTINS = frozenset(dir(builtins))
_TRY_NODES = (nodes.Try, nodes.TryStar)


def _is_builtin(binding: Optional[nodes.NodeNG]) -> bool:
    return binding is None or binding.root().name == "builtins"


def _returns(body: List[nodes.NodeNG]) -> bool:
    """The block ends by leaving normally (a raise ends the process, not just the block)."""
    return bool(body) and isinstance(body[-1], (nodes.Return, nodes.Continue, nodes.Break))


def _element_of(value: Value) -> Value:
    if isinstance(value, Iterable):
        return value.element
    if isinstance(value, Obj):
        return value.child("*")
    if isinstance(value, Container) and value.items:
        return value.items[0]
    if isinstance(value, Params):
        return value
    return UNKNOWN


def _container_item(container: Container, key: object) -> Value:
    if isinstance(key, int) and -len(container.items) <= key < len(container.items):
        return container.items[key]
    return UNKNOWN


def _param_owners(value: Value, depth: int = 0) -> Tuple[Obj, ...]:
    """The modules whose parameters an optimizer's `params` argument carries."""
    if isinstance(value, Params):
        return (value.owner,)
    if isinstance(value, (Container, Iterable)) and depth < 4:
        items = value.items if isinstance(value, Container) else (value.element,)
        return tuple(owner for item in items for owner in _param_owners(item, depth + 1))
    return ()


def _builtin_call(name: str, args: List[Value]) -> Value:
    first = args[0] if args else UNKNOWN
    if name in ("list", "tuple", "filter", "sorted", "reversed", "iter", "set"):
        if name == "filter" and len(args) > 1:
            first = args[1]
        if isinstance(first, (Params, Iterable, Container)):
            return first
        if isinstance(first, Obj):
            return Iterable(first.child("*"))
        return UNKNOWN
    if name == "enumerate":
        return Iterable(Container((UNKNOWN, _element_of(first))))
    if name == "dict":
        return Container(tuple(args))
    return UNKNOWN


def _options_keep_shards(options: nodes.NodeNG) -> bool:
    """True for `StateDictOptions(...)` that provably leaves `full_state_dict` off."""
    if not isinstance(options, nodes.Call):
        return False
    for keyword in options.keywords or []:
        if keyword.arg == "full_state_dict":
            return isinstance(keyword.value, nodes.Const) and keyword.value.value is False
    return not options.args


def _is_shard_partial(value: nodes.NodeNG, flow: Flow) -> bool:
    return (
        isinstance(value, nodes.Call)
        and flow.qualified_name(value.func) in PARTIAL
        and bool(value.args)
        and flow.shards(flow.qualified_name(value.args[0]))
    )


def _decorator_names(func: nodes.FunctionDef) -> List[str]:
    decorators = func.decorators.nodes if func.decorators else []
    return [d.name if isinstance(d, nodes.Name) else getattr(d, "attrname", "") for d in decorators]


def _is_staticmethod(func: nodes.FunctionDef) -> bool:
    return "staticmethod" in _decorator_names(func)


def _is_classmethod(func: nodes.FunctionDef) -> bool:
    return "classmethod" in _decorator_names(func)
