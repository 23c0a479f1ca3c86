"""Facts about the whole linted tree: which module a name lives in, what each function does, and
which objects may be sharded anywhere. Computed once per run, queried by every rule."""

from __future__ import annotations

import builtins
from dataclasses import dataclass, replace
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Mapping, Optional, Protocol, Set, Tuple, Union

from astroid import nodes

from fsdp_lint.analysis import class_values, closures, environment, known_apis, paths
from fsdp_lint.analysis.context import ABOVE, UNKNOWN_CONTEXT, Context, CreatedInstances, ObjectFacts, Origin, ShardEvent, Summary
from fsdp_lint.analysis.lifecycles import lifecycle_before
from fsdp_lint.analysis.declared_apis import DeclaredApis
from fsdp_lint.analysis.call_graph import unreached_cycles
from fsdp_lint.analysis.flags import AttrPath, ClassFlags, Guard, self_path
from fsdp_lint.analysis.imported_code import ImportedCode
from fsdp_lint.analysis.flow import Flow, scope_key
from fsdp_lint.analysis.node_listing import nodes_within
from fsdp_lint.analysis.syntax import exits_inside_loops, is_instance_method
from fsdp_lint.analysis.module_globals import NOTHING, ModuleGlobals, global_root
from fsdp_lint.analysis.names import FULLY_SHARD, binding_of, qualified_name, relative_module
from fsdp_lint.analysis.values import Constant, Container, Deferred, Either, Obj, Optimizer, RankNamed, Root, Value, objects_in, travels, options_of, path_covers, related_objects
from fsdp_lint.analysis.walk_records import STEP, WalkRecord, WalkRecords

_MAX_DEPTH = 12
_BUILTINS = frozenset(dir(builtins))
# Calls followed inside one another before a callee counts as unknown code.
_MAX_CALL_DEPTH = 16
# Contexts a function is analysed in with every fact; past this, only the facts rules order by.
_MAX_CONTEXTS = 6
# Rounds of a recursive function's summary before its fixpoint is taken as reached.
_MAX_ROUNDS = 3
# Sharding events one summary may carry: past this a function is unknown code to its callers.
# Real summaries stay far below (the largest seen: 476, accelerate's test_sync.main); methods that
# recurse into `module.children()` through one another went past 100,000 without settling.
_MAX_EVENTS = 5000


ModuleLoader = Callable[[str], Optional[nodes.Module]]


class ModuleIndex(Protocol):
    """What the engine can say about a module of the tree without parsing it."""

    def in_tree(self, name: str) -> bool:
        """Whether a file of the tree has this module name (parsed or not)."""

    def import_bound(self, name: str) -> Optional[FrozenSet[str]]:
        """A superset of the names the module's imports bind, or None when not known."""

    def compiles(self, name: str) -> Optional[bool]:
        """Whether CPython compiles the module, where known without building its tree (its
        bytecode cache vouches for it, or CPython's parser accepts it): astroid then builds it
        too, short of nesting so deep that its recursion overflows where CPython's does not
        (hundreds of levels). None when not known: the module is parsed to find out."""

    def decorator_users(self, name: str) -> Mapping[str, FrozenSet[str]]:
        """The modules of the tree whose code applies names of module `name` as decorators (read
        from their bytes, parsed or not), with those names."""


@dataclass(frozen=True)
class _DeferredCall:
    module: str
    objects: Tuple[Obj, ...]  # what the call receives: its receiver, and the objects its arguments carry
    result: Root  # the object it returns, as the caller holds it
    returned: bool = False  # a call of what a call into the module returned (`Deferred.returned`)


@dataclass(frozen=True)
class ClassFacts:
    """Attributes set to parameterised modules/parameters, those of them set to `nn.Parameter`s
    (tensors, not modules), and tied parameter paths (from `self`) with the flags every tie is
    made under; and what the class files its other attributes as (`known_apis.REGISTERED_KINDS`):
    buffers (tensors), and submodules (a module built or added, or an attribute its methods call:
    a tensor is not callable), which tell a buffer's cast copy from a submodule's cast in place."""

    param_attrs: Tuple[str, ...]
    ties: Tuple[Tuple[AttrPath, AttrPath, FrozenSet[Guard]], ...]
    parameters: FrozenSet[str] = frozenset()
    buffers: FrozenSet[str] = frozenset()
    submodules: FrozenSet[str] = frozenset()
    built: Tuple[Tuple[str, str], ...] = ()  # the class each module or parameter attribute is built from


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class ResolutionMemo:
    """Name resolution's answers by node (`id`), valid while the trees live."""

    __slots__ = ("qualified", "bindings")

    def __init__(self) -> None:
        self.qualified: Dict[int, Optional[str]] = {}
        self.bindings: Dict[int, Optional[nodes.NodeNG]] = {}


def _without_classes(value: Value, depth: int = 0) -> Optional[Value]:
    """Objects, lists of them and values of several of them, with no object's class: what a
    widened context keeps of them; None where the value holds anything else."""
    if isinstance(value, Obj):
        return Obj(value.root, value.attrs)
    parts = value.items if isinstance(value, Container) else value.options if isinstance(value, Either) else None
    if not parts or depth > 4:
        return None
    kept = [_without_classes(part, depth + 1) for part in parts]
    if any(part is None for part in kept):
        return None
    return replace(value, items=tuple(kept)) if isinstance(value, Container) else replace(value, options=tuple(kept))  # type: ignore[type-var]


class Project:
    def __init__(
        self, modules: List[nodes.Module], load: Optional[ModuleLoader] = None,
        index: Optional[ModuleIndex] = None, entered: Optional[FrozenSet[str]] = None,
        apis: DeclaredApis = DeclaredApis(), memo: Optional["ResolutionMemo"] = None,
        instances: Optional[CreatedInstances] = None, environment_written: FrozenSet[str] = frozenset(),
    ):
        """`load` parses a module of the tree that was left out of `modules` when a name resolves
        into it (the engine parses only the files that can matter, and the rest on demand).

        `entered` bounds that: the flows apply summaries of the functions (and know the classes)
        of these modules only, and a call into any other module of the tree (`index`) is
        deferred: unknown code, recorded with what it receives and returns. The engine enters the
        modules whose deferred calls turn out to matter and starts again, to a fixpoint
        (`fsdp_lint.engine.tree_analysis`). None enters every module.

        `apis`: the sharding functions and optimizers the project declared (configuration).
        `memo`: what name resolution found, which depends on the tree alone, so the projects of
        one analysis (one a round) can share it, as they share `instances`, the numbering of
        the objects callees create, which their kept summaries hold.
        `environment_written`: the variables of the process environment some file of the tree
        writes (`environment.written`): reads of the others are the run's inputs.
        """
        self.apis = apis
        self.environment_written = environment_written
        self.modules: Dict[str, nodes.Module] = {module.name: module for module in modules}
        self._load = load
        self._index = index
        self.entered = entered
        self._deferred: Set[_DeferredCall] = set()
        self._deciding: Set[str] = set()  # modules that could decide a branch holding shards (`demand`)
        self._origins: Dict[Root, str] = {}
        self._passed_on: Dict[Root, Set[Root]] = {}
        self._summaries: Dict[Tuple[str, Context], Summary] = {}
        self._kept_values: Dict[object, object] = {}  # one of each value the kept summaries share (`Summary.keep`)
        self._approximations: Dict[Tuple[str, Context], Summary] = {}
        self._in_progress: List[Tuple[str, Context]] = []
        self._provisional: Set[Tuple[str, Context]] = set()
        self._too_large: Set[Tuple[str, Context]] = set()  # summaries past `_MAX_EVENTS`
        self._recursed: Set[Tuple[str, Context]] = set()
        self._cut_short: Set[Tuple[str, Context]] = set()  # walks under way when a call past the depth bound was left unknown
        self._depth_cut: Dict[Tuple[str, Context], int] = {}  # summaries cut short, with the depth budget each was computed with
        self._this_round: Dict[Tuple[str, Context], Summary] = {}
        self.called: Set[str] = set()  # functions some walk of the tree called (the rest are entry points)
        self._walks: Dict[Tuple[str, Context], Tuple[FrozenSet[str], FrozenSet[str]]] = {}  # (deferred, calls) by walk
        self._cycles: Optional[FrozenSet[str]] = None  # `unreached_cycles` of the walks so far
        self._top_levels: Dict[str, ModuleGlobals] = {}  # this round's walks of top levels, by module (`top_level`)
        self._failed: Set[str] = set()  # the top levels whose walk is under way or failed
        self._analysed: Set[str] = set()  # the modules whose top levels the engine walks (`expect_top_levels`)
        self._assigned_globals: Dict[Optional[str], Optional[Root]] = {}  # `imported_global`, by qualified name
        self._globals_read: Dict[int, FrozenSet[str]] = {}
        self._may_shard: Dict[int, bool] = {}
        self._none_tested: Dict[int, FrozenSet[str]] = {}
        self._attributes_tested: Dict[int, FrozenSet[str]] = {}
        self._direct_tests: Dict[int, Tuple[FrozenSet[str], Tuple[nodes.FunctionDef, ...]]] = {}
        self._methods_named: Optional[Dict[str, List[nodes.FunctionDef]]] = None
        self._loop_exits: Dict[int, bool] = {}
        self._direct_globals: Dict[int, Tuple[FrozenSet[str], Tuple[nodes.FunctionDef, ...]]] = {}
        self._scope_events: Dict[str, List[ShardEvent]] = {}
        self._entry_contexts: Dict[str, Tuple[Context, Dict[str, Origin]]] = {}
        self._drivers_run: Dict[Tuple[int, Tuple[int, ...]], Flow] = {}  # `_driven`
        self._self_reads: Dict[str, FrozenSet[str]] = {}
        self._contexts: Dict[str, Dict[Context, Context]] = {}  # `widen`'s contexts of each function, each kept once
        self._root_events: Dict[Root, Dict[Obj, None]] = {}  # each root's event targets, in order, once
        self._aliases: Dict[Root, List[Obj]] = {}
        self._receivers: Dict[Root, Dict[Obj, None]] = {}  # a method's `self`: the objects it was called on, in order
        self._attr_values: Dict[Tuple[Root, Tuple[str, ...]], List[Value]] = {}
        self._called_names: Dict[str, FrozenSet[str]] = {}
        self._class_facts: Dict[str, ClassFacts] = {}
        self._lifecycles: Dict[int, List[nodes.FunctionDef]] = {}
        self._drivers: Dict[int, List[nodes.FunctionDef]] = {}  # `inherited_drivers`, before asking which are entries
        self._memo = ResolutionMemo() if memo is None else memo
        self.instances = CreatedInstances() if instances is None else instances
        self.texts: Dict[int, Tuple[str, Tuple[str, ...]]] = {}  # branch tests' text and names, by node
        self.walk_records = WalkRecords()  # each walk with what a listener heard, for the rule pass (`replayable`)
        self._imported = ImportedCode()

    @property
    def imported(self) -> ImportedCode:
        """What rules read of other modules: the engine collects it before the rule pass, so a walk
        of the facts that the rules heard read none of it yet (noted, for `replayable`)."""
        self.walk_records.note("imported", None, None, self._imported)
        return self._imported

    @imported.setter
    def imported(self, collected: ImportedCode) -> None:
        self._imported = collected

    # ---- building the facts ---------------------------------------------------------------------

    def summary(self, func: nodes.FunctionDef, context: Context = UNKNOWN_CONTEXT, origins: Optional[Dict[str, Origin]] = None) -> Optional[Summary]:
        """`_summary`, noted for the walk under way (its record: `replayable`)."""
        found = self._summary(func, context, origins)
        self.walk_records.note("summary", func, context, found)
        return found

    def _summary(self, func: nodes.FunctionDef, context: Context, origins: Optional[Dict[str, Origin]]) -> Optional[Summary]:
        """What `func` does when called in `context`, memoised by the context. A recursive call
        (a cycle of the call graph) gets the summary of the previous round, and the cycle's head
        is walked again until its summary stops changing (Pysa's strongly-connected-component
        fixpoint); summaries computed from a round that was not final are not kept.

        Calls nested deeper than `_MAX_CALL_DEPTH` are unknown code, so a summary computed at
        the bottom of a long chain of calls may miss what a callee does (Trainer.__init__ reached
        from a test's helper missing `self.state._apply_fsdp()`'s sharding). Such a summary
        serves calls with no more depth left than it had, and is computed again for a call with
        more (`_depth_cut`): what a call gets does not depend on how deep the first call of that
        function in that context happened to be."""
        key = (scope_key(func), context)
        budget = _MAX_CALL_DEPTH - len(self._in_progress)
        done = self._memoised(key, budget)
        if done is not None:
            return done
        if key in self._too_large:
            return None
        if key in self._in_progress:
            self._recursed.add(key)
            for inner in self._in_progress[self._in_progress.index(key) + 1:]:
                self._provisional.add(inner)
            return self._approximations.get(key)
        if budget <= 0:
            self._cut_short.update(self._in_progress)
            return None
        if len(self._summaries) > 200_000:
            return None
        self._in_progress.append(key)
        try:
            for _ in range(_MAX_ROUNDS):
                self._this_round.clear()  # what the last round computed from its approximations
                self._recursed.discard(key)
                record = self.walk_records.start(origins)
                try:
                    flow = Flow(self, func, record.listener if record else None, context, origins).run()
                finally:
                    self.walk_records.end()
                summary = flow.summary()
                if len(summary.events) > _MAX_EVENTS:
                    break
                previous = self._approximations.get(key)
                if key not in self._recursed or (previous is not None and previous.signature() == summary.signature()):
                    break
                self._approximations[key] = summary
        finally:
            self._in_progress.pop()
        self._approximations.pop(key, None)
        if len(summary.events) > _MAX_EVENTS:
            self._too_large.add(key)
            self._provisional.discard(key)
            return None
        if key in self._cut_short:
            self._cut_short.discard(key)
            self._depth_cut[key] = budget
        else:
            self._depth_cut.pop(key, None)
        self.record(flow)
        if key in self._provisional:
            self._provisional.discard(key)
            self._this_round[key] = summary  # valid until a cycle's head starts another round
        else:
            summary.keep(self._kept_values)
            self._summaries[key] = summary
            self.walk_records.keep(key[0], context, record)
        return summary

    def _memoised(self, key: Tuple[str, Context], budget: int) -> Optional[Summary]:
        """The summary a call with `budget` levels of calls left gets without a walk, if any."""
        done = self._summaries.get(key) or self._this_round.get(key)
        return done if done is not None and self._depth_cut.get(key, budget) >= budget else None

    def widen(self, func: nodes.FunctionDef, context: Context) -> Context:
        """The context a call is analysed in: itself while the function has few, else only what
        the rules order by (what is sharded, what is on the meta device, the flags), so that a
        helper called from hundreds of places with objects of as many classes is analysed in a
        handful of contexts (bounded context sensitivity, as k-limited analyses do)."""
        widened, narrowed = self._widen(func, context)
        # a walk's record keeps a narrowed context by its hash alone (`_narrowed_again`)
        self.walk_records.note("widen", func, hash(context) if narrowed else None, widened)
        return widened

    def _widen(self, func: nodes.FunctionDef, context: Context) -> Tuple[Context, bool]:
        """`widen`'s context, and whether it narrowed the call's."""
        key = scope_key(func)
        seen = self._contexts.setdefault(key, {})
        if context in seen or len(seen) < _MAX_CONTEXTS:
            return seen.setdefault(context, context), False  # the one already known: memo lookups then compare by identity
        on_meta = {key[0] for key, _ in context.meta}  # the caller's objects on the meta device that values refer to
        # the caller's sharded objects that values refer to (a list of a sharded model's modules,
        # `fsdp2_aware_weight_update(model, modules)`): which of them the value holds is what
        # the callee's shards, forwards and re-registrations are about
        shared = {root for root, _ in context.globals}
        narrow, plain_roots = [], set(context.plain)
        for name, facts in context.params:
            if isinstance(facts, ObjectFacts):
                # a configuration object passed on (`Trainer(parallelism_config=...)`): its class
                # and which options it holds, of which classes, select the code path
                cls = facts.cls if class_values.is_setting_class(self, facts.cls) else None
                chosen = tuple((attrs, value) for attrs, value in facts.attrs if self.is_choice(value))
                # a module's class only names it, but its kind decides `if models:` and
                # `isinstance(models, list)`, at no more contexts than two
                plain = facts.plain or cls is None and class_values.plain_module(self, facts.cls)
                if facts.sharded or facts.meta or cls or chosen:
                    narrow.append((name, replace(facts, cls=cls, attrs=chosen, plain=plain)))
            elif isinstance(facts, (Optimizer, RankNamed)) or travels(facts) or isinstance(facts, Container) and self.is_choice(facts):
                # a dict of options (`{"fsdp": FSDPConfig(...)}`) is one too; an int or a string the
                # callee tests (`Flow._decides`) is not: one context per number would be unbounded
                narrow.append((name, facts))
            elif isinstance(facts, (Container, Either)) and any(o.root in shared for o in objects_in(facts)):
                # the caller's modules, one sharded, in a list (`[models]`) or one of several
                # (a loop's item): kept, as an object argument is, without the classes but with
                # their kind (`Context.plain`)
                kept = _without_classes(facts)
                if kept is not None:
                    narrow.append((name, kept))
                    plain_roots.update(o.root for o in objects_in(facts) if not o.attrs and class_values.plain_module(self, o.cls))
            elif (on_meta or shared) and any(o.root in on_meta or o.root in shared for o in related_objects(facts)):
                narrow.append((name, facts))
        widened = replace(context, params=tuple(narrow), plain=frozenset(plain_roots))
        return seen.setdefault(widened, widened), True

    def is_choice(self, value: Value) -> bool:
        """Whether an attribute's value in a calling context says which options an object holds,
        every value it may be: None, or an object of a setting class (`cfg.fsdp` an `FSDPConfig`,
        `cfg.fsdp2` None). A widened context keeps these and drops the flags inside them, which
        would make a context of each combination a caller sets."""
        return all(
            isinstance(option, Constant) and option.value is None
            or isinstance(option, Obj) and class_values.is_setting_class(self, option.cls)
            or isinstance(option, Container) and bool(option.items) and all(self.is_choice(item) for item in option.items)
            for option in options_of(value)
        )

    def record(self, flow: Flow) -> None:
        own = [event for event in flow.events if not event.inherited]
        self._scope_events[flow.key] = own
        walk = (flow.key, flow.context)
        for event in own:
            self._root_events.setdefault(event.target.root, {})[event.target] = None
        self._walks[walk] = (frozenset(flow.deferred), frozenset(flow.calls))
        self.called |= flow.calls
        self._cycles = None

    def expect_top_levels(self, modules: Iterable[str]) -> None:
        """The modules whose top levels the engine walks (its analysed files: the byte scan keeps
        every module whose top level can shard). Their globals are known to the walks that read
        them (`module_globals`); another module's hold nothing those walks need."""
        new = set(modules) - self._analysed
        if new:
            self._analysed |= new
            self._assigned_globals.clear()  # a global of theirs was nothing this analysis reads

    def top_level(self, module: nodes.Module) -> ModuleGlobals:
        """Walk a module's top level (once a round) and record its facts; what it left in its
        globals. A walk that reads them while it is under way (an import cycle) finds nothing."""
        name = module.name
        if name in self._top_levels and name not in self._failed:
            return self._top_levels[name]
        self._top_levels[name] = NOTHING
        self._failed.add(name)
        record = self.walk_records.start(None)
        try:
            flow = Flow(self, module, record.listener if record else None).run()
        finally:
            self.walk_records.end()
        self._failed.discard(name)
        self.walk_records.keep(name, UNKNOWN_CONTEXT, record)
        self.record(flow)
        found = self._top_levels[name] = flow.module_globals()
        for root, attrs in found.sharded:
            self._root_events.setdefault(root, {})[Obj(root, () if attrs == ABOVE else attrs)] = None
        return found

    def module_globals(self, name: str) -> ModuleGlobals:
        """What the top level of module `name` left in its globals, walked on demand: for a
        module the engine does not walk (`expect_top_levels`), nothing. A walk that fails here
        fails again when the engine walks that module, which reports it for its file."""
        found = self._module_globals(name)
        self.walk_records.note("globals", name, None, found.sharded)  # what a walk takes of them (their `deferred` is for `enter`)
        return found

    def _module_globals(self, name: str) -> ModuleGlobals:
        module = self.modules.get(name) if name in self._analysed else None
        if module is None:
            return NOTHING
        if name in self._top_levels:
            return self._top_levels[name]
        try:
            return self.top_level(module)
        except Exception:  # RecursionError among them
            return NOTHING

    def global_binding(self, qname: Optional[str]) -> Optional[nodes.AssignName]:
        """Where the top level of a module the flows enter binds the global a qualified name
        denotes, if it binds it once and nothing else binds the name there; None otherwise."""
        module, _, name = (qname or "").rpartition(".")
        tree = self.module(module) if module and (self.entered is None or module in self.entered) else None
        bindings = tree.locals.get(name, ()) if tree is not None else ()
        return bindings[0] if len(bindings) == 1 and isinstance(bindings[0], nodes.AssignName) else None

    def imported_global(self, qname: Optional[str]) -> Optional[Tuple[Root, ModuleGlobals]]:
        """The global that a qualified name (re-exports followed) denotes, where that is a name
        its module's top level assigns, with what that top level left in the module's globals; None
        otherwise (a function, a class, a module outside the analysed ones)."""
        if qname not in self._assigned_globals:
            root = None
            module, _, name = (qname or "").rpartition(".")
            tree = self.modules.get(module) if module in self._analysed else None
            bindings = tree.locals.get(name, ()) if tree is not None else ()
            if bindings and isinstance(bindings[-1], nodes.AssignName):
                root = global_root(module, name)
            self._assigned_globals[qname] = root
        root = self._assigned_globals[qname]
        return None if root is None else (root, self.module_globals(root[0]))

    def globals_read(self, func: nodes.FunctionDef) -> FrozenSet[str]:
        """The globals a call of `func` may read: the names it reads that its module's top
        level binds by a statement other than an import, `def` or `class` (what may hold an
        object), or that nothing in the module binds (a star import); its own and those of the
        functions of its module that it calls (by name, or as methods of `self`, a few dozen at
        most), which see the same globals."""
        known = self._globals_read.get(id(func))
        if known is None:
            known = self._globals_read[id(func)] = _names_reached(func, self._globals_of, 32)
        return known

    def may_shard(self, func: nodes.FunctionDef) -> bool:
        """Whether a call of `func` may shard: it, or a function of the tree it calls (by its
        qualified name, a few dozen at most), calls `fully_shard` or a declared sharding function.
        A function handed to code the flows do not enter is worth entering that code for only
        then (`configure_model(model, shard_fn=shard_model)`; not a dataset's `process_sample`)."""
        known = self._may_shard.get(id(func))
        if known is None:
            known = self._may_shard[id(func)] = bool(_names_reached(func, self._sharding_calls, 32))
        return known

    def _sharding_calls(self, func: nodes.FunctionDef) -> Tuple[FrozenSet[str], Tuple[nodes.FunctionDef, ...]]:
        """The sharding functions `func` itself calls (`may_shard`), and the functions of the tree it calls."""
        found: Set[str] = set()
        callees = []
        for call in nodes_within(func, nodes.Call):
            qname = self.qualified_name(call.func)
            if qname in FULLY_SHARD or self.apis.shards(qname):
                found.add(qname)
            else:
                target = self.resolve_callable(qname)
                if isinstance(target, nodes.FunctionDef):
                    callees.append(target)
        return frozenset(found), tuple(callees)

    def exits_inside_loops(self, scope: nodes.NodeNG) -> bool:
        """`syntax.exits_inside_loops`, read once per scope: each walk of a scope asks it, and a
        function is walked in every context it is called in."""
        known = self._loop_exits.get(id(scope))
        if known is None:
            known = self._loop_exits[id(scope)] = exits_inside_loops(scope)
        return known

    def none_tested(self, func: nodes.FunctionDef) -> FrozenSet[str]:
        """The parameters `func` tests against None (`x is None`, `x is not None`): those whose
        argument's being None or not a calling context carries, and no other, so that callers
        passing values the callee never tests that way share its contexts."""
        known = self._none_tested.get(id(func))
        if known is None:
            params = {arg.name for arg in func.args.arguments} if func.args.arguments else set()
            found = set()
            for compare in nodes_within(func, nodes.Compare):
                tested = paths.none_test(compare)
                if tested is not None and isinstance(tested[0], nodes.Name) and tested[0].name in params:
                    found.add(tested[0].name)
            known = self._none_tested[id(func)] = frozenset(found)
        return known

    def attributes_tested(self, func: nodes.FunctionDef) -> FrozenSet[str]:
        """The names a call of `func` may test: attributes and parameters read in its tests
        (`if`, `while`, conditional expressions, comparisons, `and`/`or`) and the environment
        variables it reads, its own and those of the functions it may call (by name: a function
        of its module, a method or property of a class of the tree by the attribute), a few dozen
        at most. What a calling context says of the caller's branch outcomes is kept to these
        (`Context.outcomes`), so that calls under outcomes the callee never reads share contexts."""
        known = self._attributes_tested.get(id(func))
        if known is None:
            known = self._attributes_tested[id(func)] = _names_reached(func, self._tests_of, 64)
        return known

    def _tests_of(self, func: nodes.FunctionDef) -> Tuple[FrozenSet[str], Tuple[nodes.FunctionDef, ...]]:
        """The names `func` itself tests (`attributes_tested`), and the functions it may call."""
        known = self._direct_tests.get(id(func))
        if known is not None:
            return known
        names: Set[str] = set()
        tests = [node.test for node in nodes_within(func, (nodes.If, nodes.While, nodes.IfExp))]
        tests += list(nodes_within(func, (nodes.Compare, nodes.BoolOp)))
        for test in tests:
            for node in [test, *test.nodes_of_class((nodes.Attribute, nodes.Name, nodes.Subscript))]:
                if isinstance(node, nodes.Attribute):
                    names.add(node.attrname)
                elif isinstance(node, nodes.Subscript) and isinstance(node.slice, nodes.Const) and isinstance(node.slice.value, str):
                    names.add(node.slice.value)  # `conf["data"]`, an entry as `conf.data` is (`paths.name_chain`)
                elif isinstance(node, nodes.Name):
                    names.add(node.name)
        callees: List[nodes.FunctionDef] = []
        module = func.root()
        for node in nodes_within(func, (nodes.Call, nodes.Attribute, nodes.Subscript)):
            read = environment.read_name(node, self._environment_reader(node))
            if read is not None:
                names.add(read)
            if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Name) and node.func.name not in func.locals:
                target = _last_definition(module, node.func.name)
                target = _method(target, "__init__") if isinstance(target, nodes.ClassDef) else target
                if isinstance(target, nodes.FunctionDef):
                    callees.append(target)
            elif isinstance(node, nodes.Attribute):
                callees.extend(self._methods_by_name().get(node.attrname, ()))
        known = self._direct_tests[id(func)] = (frozenset(names), tuple(callees))
        return known

    def _environment_reader(self, node: nodes.NodeNG) -> Optional[str]:
        """The qualified name of what `node` may read the environment through (the function a
        call calls, the object a subscript indexes), where its last name is one that can."""
        read = node.func if isinstance(node, nodes.Call) else node.value if isinstance(node, nodes.Subscript) else None
        last = read.attrname if isinstance(read, nodes.Attribute) else read.name if isinstance(read, nodes.Name) else None
        return self.qualified_name(read) if last in ("get", "getenv", "environ") else None

    def _methods_by_name(self) -> Dict[str, List[nodes.FunctionDef]]:
        """The methods and properties of the classes of the modules parsed so far, by name."""
        if self._methods_named is None:
            self._methods_named = {}
            for module in self.modules.values():
                for cls in nodes_within(module, nodes.ClassDef):
                    for method in cls.mymethods():
                        self._methods_named.setdefault(method.name, []).append(method)
        return self._methods_named

    def _globals_of(self, func: nodes.FunctionDef) -> Tuple[FrozenSet[str], Tuple[nodes.FunctionDef, ...]]:
        """The globals `func` itself reads (`globals_read`), and the functions of its module it calls."""
        known = self._direct_globals.get(id(func))
        if known is not None:
            return known
        module = func.root()
        read: Set[str] = set()
        callees = []
        cls = func.parent if isinstance(func.parent, nodes.ClassDef) else None
        for node in nodes_within(func, (nodes.Name, nodes.Call)):
            if isinstance(node, nodes.Name):
                read.add(node.name)
                continue
            callee, target = node.func, None
            if isinstance(callee, nodes.Name) and callee.name not in func.locals:
                target = _last_definition(module, callee.name)
            elif cls is not None and isinstance(callee, nodes.Attribute) and isinstance(callee.expr, nodes.Name) and callee.expr.name == "self":
                target = _method(cls, callee.attrname)
            if isinstance(target, nodes.ClassDef):
                target = _method(target, "__init__")
            if isinstance(target, nodes.FunctionDef) and target is not func:
                callees.append(target)
        names = set()
        for name in read:
            if name in func.locals or name in _BUILTINS:
                continue
            bindings = module.locals.get(name, ())
            if not bindings or any(isinstance(b, nodes.AssignName) for b in bindings):
                names.add(name)
        known = self._direct_globals[id(func)] = (frozenset(names), tuple(callees))
        return known

    def enter(self, entered: FrozenSet[str]) -> None:
        """Enter more modules for the next round of the facts. A walk stays valid unless it
        deferred a call into one of them (itself or through a callee: `Flow.deferred`), so its
        summary is kept and only the rest is walked again, as mypy's and Pysa's dependency
        tracking re-analyse only what a change reaches. Top levels are walked again (they give
        the entry contexts). What the dropped walks recorded for `demanded_modules` stays: more
        modules are entered than needed, never fewer."""
        assert self.entered is not None and entered >= self.entered
        new = entered - self.entered
        self.entered = entered
        # a top level's key is its module's name (`scope_key`): walked again every round
        stale = {walk for walk, (deferred, _) in self._walks.items() if deferred & new or ":" not in walk[0]}
        for walk in stale:
            self._walks.pop(walk, None)
            self._summaries.pop(walk, None)
        self.walk_records.keep_only(self._walks)  # and the walks of classes, each round's own
        self._this_round.clear()
        self._entry_contexts.clear()
        self._drivers_run.clear()
        self._top_levels.clear()
        self._failed.clear()
        self._drivers.clear()  # bases in the modules entered now may resolve
        self.called = set().union(*(calls for _, calls in self._walks.values()))
        self._cycles = None
        self._contexts.clear()  # `widen` counts afresh, as in a first round
        self._methods_named = None  # methods of the modules parsed since count for `attributes_tested`
        self._attributes_tested.clear()
        self._direct_tests.clear()

    def is_entry(self, func: nodes.FunctionDef) -> bool:
        """Whether `func` is analysed on its own, in the context an unknown caller gives it
        (`entry_context`): no walk of the tree calls it, or only functions it calls itself do
        and nothing else reaches them (functions that call each other, which no code of the tree
        calls, are entered from each of them)."""
        key = scope_key(func)
        return key not in self.called or key in self._cycle_entries()

    def _cycle_entries(self) -> FrozenSet[str]:
        if self._cycles is None:
            graph: Dict[str, Set[str]] = {}
            for (caller, _), (_, calls) in self._walks.items():
                graph.setdefault(caller, set()).update(calls)
            self._cycles = unreached_cycles(graph)
        return self._cycles

    def entry_context(self, func: nodes.FunctionDef, cls: Optional[nodes.ClassDef] = None) -> Tuple[Context, Dict[str, Origin]]:
        """The context of a call from outside the tree: nothing known of the parameters, the
        module's globals as its top level left them, and for a method, `self` as the methods
        that surely ran before it left it: `__init__`, and for a class of a framework with a
        documented lifecycle (Lightning), the lifecycle's earlier hooks, in order. Otherwise the
        order of the methods is unknown, and nothing else is assumed. `cls`: `self` is an object
        of this subclass of the method's class, which inherits it (`inherited_drivers`)."""
        key = scope_key(func) if cls is None else f"{scope_key(func)}@{scope_key(cls)}"
        known = self._entry_contexts.get(key)
        if known is not None:
            return known
        sharded = self.module_globals(func.root().name).sharded
        reads = self.globals_read(func) if sharded else frozenset()
        globals_ = frozenset(path for path in sharded if path[0][1] in reads)
        found: Tuple[Context, Dict[str, Origin]] = (Context((), globals_), {})
        if is_instance_method(func):
            context, origins = self._driven(cls or func.parent, func)
            found = (Context(context.params, globals_ | context.globals), origins)
        self._entry_contexts[key] = found
        return found

    def inherited_drivers(self, cls: nodes.ClassDef) -> List[nodes.FunctionDef]:
        """The public methods `cls` inherits from its bases of the tree that no code of the tree
        calls (entries: the object's driver is outside the tree, a registry builds it) and that
        call on `self`, directly or through the methods of `self` they call, a method `cls`
        overrides (`Base.train` calling `self.save()`, which `Sub` overrides). Each is a driver of
        an object of `cls` too: the engine walks it in `entry_context(driver, cls)`, where `self`
        dispatches to the overrides. An inherited method that reaches no override does on an
        object of `cls` what its own class's entry walk already saw, and is not walked again."""
        known = self._drivers.get(id(cls))
        if known is None:
            known = self._drivers[id(cls)] = self._overriding_drivers(cls)
        return [method for method in known if self.is_entry(method)]

    def _overriding_drivers(self, cls: nodes.ClassDef) -> List[nodes.FunctionDef]:
        receiver = Obj((scope_key(cls), "self", 0), cls=self.class_qname(cls))
        names = dict.fromkeys(name for base in self._all_tree_bases(cls) for name in base.locals if not name.startswith("_"))
        found = []
        for name in names:
            method = self.resolve_method(receiver, None, name)
            if isinstance(method, nodes.FunctionDef) and method.parent is not cls and is_instance_method(method):
                if self._reaches_override(method, receiver):
                    found.append(method)
        return found

    def _reaches_override(self, driver: nodes.FunctionDef, receiver: Obj) -> bool:
        """Whether `driver` (a method of a base of `receiver`'s class) calls on `self`, directly or
        through the methods of `self` it calls (a few dozen at most), a method that the class
        resolves otherwise than the driver's own class does."""
        own = Obj(receiver.root, cls=self.class_qname(driver.parent))
        pending, seen = [driver], set()
        while pending and len(seen) < 32:
            method = pending.pop()
            if id(method) in seen:
                continue
            seen.add(id(method))
            for call in nodes_within(method, nodes.Call):
                callee = call.func
                if isinstance(callee, nodes.Attribute) and isinstance(callee.expr, nodes.Name) and callee.expr.name == "self":
                    dispatched = self.resolve_method(receiver, None, callee.attrname)
                    if not isinstance(dispatched, nodes.FunctionDef):
                        continue
                    if dispatched is not self.resolve_method(own, None, callee.attrname):
                        return True
                    pending.append(dispatched)
        return False

    def _all_tree_bases(self, cls: nodes.ClassDef) -> List[nodes.ClassDef]:
        """The bases of `cls` of the tree that the flows enter, transitively, nearest first."""
        return _bases(cls, lambda base: self.callable_for_flow(self.qualified_name(base)))

    def lifecycle(self, cls: nodes.ClassDef) -> List[nodes.FunctionDef]:
        """`__init__` and the hooks a framework calls on an object of `cls`, in its documented
        order (empty for a class whose framework documents none). Remembered: the engine asks
        for every class while it collects the facts, when resolving its bases may still parse."""
        known = self._lifecycles.get(id(cls))
        if known is None:
            receiver = Obj((scope_key(cls), "self", 0), cls=self.class_qname(cls))
            hooks = lifecycle_before(self._framework_bases(cls), None)
            found = [self.resolve_method(receiver, None, name) for name in (["__init__"] + hooks if hooks else [])]
            known = self._lifecycles[id(cls)] = [method for method in found if isinstance(method, nodes.FunctionDef)]
        return known

    def _narrowed_again(self, func: nodes.FunctionDef, called: int, narrowed: Context) -> bool:
        """Whether `widen` would narrow again, to `narrowed`, a call's context of which a record
        kept the hash alone: the function has its fill of contexts and none of them is the call's
        (none has its hash). Then `narrowed` is among them, as `widen` leaves it."""
        seen = self._contexts.setdefault(scope_key(func), {})
        if len(seen) < _MAX_CONTEXTS or any(hash(known) == called for known in seen):
            return False
        seen.setdefault(narrowed, narrowed)
        return True

    def walk_class(self, cls: nodes.ClassDef) -> None:
        """Walk a class as the framework that drives it runs it (`lifecycle`), recorded as every walk is."""
        record = self.walk_records.start(None)
        try:
            Flow(self, cls, record.listener if record else None).run()
        finally:
            self.walk_records.end()
        self.walk_records.keep(scope_key(cls), UNKNOWN_CONTEXT, record)

    def replayable(self, scope: nodes.NodeNG, context: Context, origins: Dict[str, Origin]) -> Optional[WalkRecord]:
        """The record of a walk of the facts of `scope` in `context` that a walk now would repeat
        (`fsdp_lint.analysis.walk_records`): it ran with these origins, and each thing it asked is
        asked again, in its order, and answered as it was then. `widen` is asked as the walk now
        would ask it (it counts each function's contexts as it goes), and a summary is the very
        one memoised for a walk with every level of calls left, as the rule pass's walks have."""
        record = self.walk_records.take(scope_key(scope), context)
        if record is None or record.origins != origins:
            return None
        steps = record.steps
        for at in range(0, len(steps), STEP):
            kind, asked, extra, then = steps[at:at + STEP]
            if kind == "summary":
                if then is None or self._memoised((scope_key(asked), extra), _MAX_CALL_DEPTH) is not then:  # type: ignore[arg-type]
                    return None
                continue
            if kind == "widen" and extra is not None:
                if not self._narrowed_again(asked, extra, then):  # type: ignore[arg-type]
                    return None
                continue
            if kind == "widen":
                now: object = self.widen(asked, then)  # type: ignore[arg-type]
            elif kind == "globals":
                now = self.module_globals(asked).sharded  # type: ignore[arg-type]
            elif kind == "events":
                now = self.events_of_scope(asked)  # type: ignore[arg-type]
            elif kind == "imported":
                now = self._imported
            else:
                now = self.origin(asked)  # type: ignore[arg-type]
            if now is not then and now != then:
                return None
        return record

    def _driven(self, cls: nodes.ClassDef, func: nodes.FunctionDef) -> Tuple[Context, Dict[str, Origin]]:
        """The context of `func` on an object of `cls` that the methods known to run before it
        prepared: a walk of nothing, on the class, that applies them in order."""
        receiver = Obj((scope_key(cls), "self", 0), cls=self.class_qname(cls))
        earlier = [] if func.name == "__init__" else ["__init__"] + lifecycle_before(self._framework_bases(cls), func.name)
        self.walk_records.start_unrecorded()  # on behalf of whichever walk asked for the context
        try:
            methods = [method for method in (self.resolve_method(receiver, None, name) for name in earlier) if isinstance(method, nodes.FunctionDef)]
            # the same methods run first for most methods of a class (`__init__`): driven once
            key = (id(cls), tuple(id(method) for method in methods))
            driver = self._drivers_run.get(key)
            if driver is None:
                driver = self._drivers_run[key] = Flow(self, cls)
                for method in methods:
                    driver.drive(method, receiver)
            return driver.context_for_method(func, receiver)
        finally:
            self.walk_records.end()

    def _framework_bases(self, cls: nodes.ClassDef) -> Set[str]:
        """The qualified names of the bases outside the tree, through the tree's own bases."""
        found: Set[str] = set()
        pending, seen = [cls], set()
        while pending and len(seen) < 32:
            klass = pending.pop()
            if id(klass) in seen:
                continue
            seen.add(id(klass))
            for base in klass.bases:
                qname = self.qualified_name(base)
                resolved = self.resolve_callable(qname)
                if isinstance(resolved, nodes.ClassDef):
                    pending.append(resolved)
                elif qname:
                    found.add(qname)
        return found

    def self_reads(self, func: nodes.FunctionDef) -> FrozenSet[str]:
        """The attributes of `self` a method reads or writes, directly or in the methods of its
        class (and bases) it calls on `self`, a few levels deep: what of `self`'s state its
        calling context needs to carry (the rest would only multiply contexts)."""
        key = scope_key(func)
        known = self._self_reads.get(key)
        if known is not None:
            return known
        self._self_reads[key] = frozenset()  # recursion guard
        cls = func.parent
        names: Set[str] = set()
        for node in nodes_within(func, (nodes.Attribute, nodes.AssignAttr)):
            if isinstance(node.expr, nodes.Name) and node.expr.name == "self":
                names.add(node.attrname)
        if isinstance(cls, nodes.ClassDef):
            receiver = Obj((scope_key(cls), "self", 0), cls=self.class_qname(cls))
            for call in nodes_within(func, nodes.Call):
                callee = call.func
                method: Union[nodes.FunctionDef, nodes.ClassDef, Deferred, None] = None
                if isinstance(callee, nodes.Name) and callee.name == "self":
                    method = self.called_method(receiver, None, None)  # `self(x)`: its `forward` runs
                elif not isinstance(callee, nodes.Attribute):
                    continue
                elif isinstance(callee.expr, nodes.Name) and callee.expr.name == "self":
                    method = self.resolve_method(receiver, None, callee.attrname)
                elif isinstance(callee.expr, nodes.Call) and isinstance(callee.expr.func, nodes.Name) and callee.expr.func.name == "super":
                    method = self.resolve_method(receiver, None, callee.attrname, after=cls)  # `super().prepare()`
                elif call.args and isinstance(call.args[0], nodes.Name) and call.args[0].name == "self":
                    method = self.callable_for_flow(self.qualified_name(callee))  # `Base.prepare(self)`
                    method = method if isinstance(method, nodes.FunctionDef) and is_instance_method(method) else None
                if isinstance(method, nodes.FunctionDef) and method is not func:
                    names |= self.self_reads(method)
        found = frozenset(names)
        self._self_reads[key] = found
        return found

    def class_qname(self, cls: nodes.ClassDef) -> str:
        return cls.qname()

    def record_fields(self, qname: Optional[str]) -> Tuple[str, ...]:
        """The fields of a dataclass or NamedTuple of the tree, in order (what its generated
        `__init__` assigns from its arguments)."""
        cls = self.resolve_callable(qname)
        if not isinstance(cls, nodes.ClassDef):
            return ()
        fields = []
        for klass in reversed([cls] + self.tree_bases(cls)):
            for statement in klass.body:
                if isinstance(statement, nodes.AnnAssign) and isinstance(statement.target, nodes.AssignName):
                    if "ClassVar" not in statement.annotation.as_string():
                        fields.append(statement.target.name)
        return tuple(dict.fromkeys(fields))

    def is_dataclass(self, qname: Optional[str]) -> bool:
        """Whether a class of the tree, or a base of it in the tree, is decorated `@dataclass`
        (stdlib or pydantic, called or not): its generated `__init__` then ends by running
        `__post_init__`, which a NamedTuple's never does."""
        cls = self.resolve_callable(qname)
        if not isinstance(cls, nodes.ClassDef):
            return False
        for klass in [cls] + self.tree_bases(cls):
            for decorator in klass.decorators.nodes if klass.decorators else ():
                target = decorator.func if isinstance(decorator, nodes.Call) else decorator
                if (self.qualified_name(target) or "").rsplit(".", 1)[-1] == "dataclass":
                    return True
        return False

    def add_alias(self, root: Root, value: Obj) -> None:
        aliases = self._aliases.setdefault(root, [])
        if value not in aliases and value.root != root:
            aliases.append(value)

    def add_receiver(self, root: Root, value: Obj) -> None:
        """A method whose `self` is `root` was called on `value`. Kept apart from the aliases
        (a class's `self` stands for every instance, so it is no alias of one): only a deferred
        call that received `self` asks for them, to know whether the instance may hold shards."""
        if value.root != root:  # each once (a dict: a class's `self` gets hundreds, each asked at every call)
            self._receivers.setdefault(root, {}).setdefault(value, None)

    def add_attr_value(self, root: Root, attrs: Tuple[str, ...], value: Value) -> None:
        values = self._attr_values.setdefault((root, attrs), [])
        if value not in values:
            values.append(value)

    def defer(self, module: str, received: Iterable[Value], result: Root, returned: bool = False) -> None:
        """Record a deferred call into `module`: the values it receives and the root the caller
        gave its result (a method called on that result later is deferred to `module` too);
        `returned`: a call of a function a call into it returned (`Deferred.returned`), whose
        result is no object of the module's code (the function may come from anywhere:
        torchtune's `_get_component_from_path(path)(**cfg)` builds the model) and has no origin."""
        objects = tuple(obj for value in received for obj in related_objects(value))
        self._deferred.add(_DeferredCall(module, objects, result, returned))
        if not returned:
            self._origins[result] = module

    def demand(self, modules: Iterable[str]) -> None:
        """Modules a walk needs entered: to decide a branch test that holds shards
        (`fsdp_lint.analysis.deciding_modules`), or to see what a call into one does with a
        model on the meta device that nothing initialised yet (unknown code may initialise it)."""
        self._deciding.update(modules)

    def origin(self, root: Root) -> Optional[str]:
        """The module of the deferred call that `root` is the result of, if it is one."""
        found = self._origins.get(root)
        self.walk_records.note("origin", root, None, found)
        return found

    def inherit_origin(self, root: Root, from_root: Root) -> None:
        """`root` is `from_root` as a caller holds it (a function returned a deferred result)."""
        module = self._origins.get(from_root)
        if module is not None and root != from_root:
            self._origins.setdefault(root, module)
            self._passed_on.setdefault(from_root, set()).add(root)

    def demanded_modules(self) -> Set[str]:
        """The modules of the deferred calls that can change a finding: those that receive an
        object which may hold shards (or parameters, an optimizer or a state dict derived from
        one), and those whose result may hold shards, as the callers it is returned to hold it,
        or through a name or attribute bound to it. Every other deferred call is one that a full
        analysis would see handle nothing sharded: its effects (escapes, aliases of its
        parameters, the identity and class of what it returns) reach no rule, unless a walk
        demanded its module to decide a branch that holds shards (`demand`)."""
        referrers: Dict[Root, List[Obj]] = {}
        for root, aliases in self._aliases.items():
            for alias in aliases:
                referrers.setdefault(alias.root, []).append(Obj(root))
        for (root, attrs), values in self._attr_values.items():
            for value in values:
                if isinstance(value, Obj):
                    referrers.setdefault(value.root, []).append(Obj(root, attrs))
        demanded: Set[str] = set(self._deciding)
        decided: Dict[Obj, bool] = {}
        for call in sorted(self._deferred, key=lambda c: (c.module, c.result, c.returned)):
            if call.module in demanded or call.returned and not self._makes_functions(call.module):
                continue
            results = self._passed_on_closure(call.result)
            candidates = list(call.objects) + [Obj(r) for r in results] + [o for r in results for o in referrers.get(r, ())]
            candidates += self._instances_of(call.objects)
            for obj in candidates:
                if obj not in decided:
                    decided[obj] = self.may_hold_shards(obj)
                if decided[obj]:
                    demanded.add(call.module)
                    break
        return demanded

    def _makes_functions(self, name: str) -> bool:
        """Whether a function of module `name` returns one it defines (`closures.makes_functions`)."""
        module = self.module(name)
        return module is not None and closures.makes_functions(module)

    def _instances_of(self, objects: Iterable[Obj]) -> List[Obj]:
        """The objects that received `self` objects stand for, through the receivers of the
        methods that were called on them in turn (`Net.__init__`'s `self`, the `model` that
        `main` built): a base's `__init__` in a module not entered receives the model."""
        found: List[Obj] = []
        seen: Set[Obj] = set()  # `found`'s members: a receiver of a class's methods has hundreds
        pending = list(objects)
        while pending and len(found) < 64:
            current = pending.pop()
            for receiver in self._receivers.get(current.root, ()):
                instance = Obj(receiver.root, receiver.attrs + current.attrs)
                if instance not in seen:
                    seen.add(instance)
                    found.append(instance)
                    pending.append(instance)
        return found

    def _passed_on_closure(self, root: Root) -> List[Root]:
        found, seen = [root], {root}
        index = 0
        while index < len(found) and len(found) < 256:
            for following in sorted(self._passed_on.get(found[index], ())):
                if following not in seen:
                    seen.add(following)
                    found.append(following)
            index += 1
        return found

    # ---- queries ------------------------------------------------------------------------------------

    def events_of_scope(self, key: str) -> List[ShardEvent]:
        """The shard events of the latest walk of a scope (in whichever context)."""
        found = self._scope_events.get(key, [])
        self.walk_records.note("events", key, None, found)
        return found

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
        for call in nodes_within(func, nodes.Call):
            callee = call.func
            name = callee.attrname if isinstance(callee, nodes.Attribute) else getattr(callee, "name", None)
            if name:
                found.add(name)
            if depth < 3 and isinstance(callee, nodes.Name):

                target = self.resolve_callable(self.qualified_name(callee))
                if isinstance(target, nodes.FunctionDef):
                    found |= self.called_names(target, depth + 1)
        result = frozenset(found)
        self._called_names[key] = result
        return result

    def class_facts(self, qname: Optional[str]) -> "ClassFacts":
        """What a class of the tree (with its tree bases) builds in its methods: the attributes it
        sets to parameterised torch leaves or `nn.Parameter`s, and the parameters it ties together
        (`self.output.weight = self.tok_embeddings.weight`), with the flags of `self` that every
        such tie is done under (`if self.enable_weight_tying:`). Empty for classes outside the tree.
        Rules ask it, and the rule pass may not parse: `imported_code.collect` computes it for every
        class of an entered module first."""
        if not qname:
            return ClassFacts((), ())
        cached = self._class_facts.get(qname)
        if cached is not None:
            return cached
        self._class_facts[qname] = ClassFacts((), ())  # recursion guard
        cls = self.resolve_callable(qname)
        own: List[str] = []
        parameters: Set[str] = set()
        ties: Dict[Tuple[AttrPath, AttrPath], FrozenSet[Guard]] = {}
        kinds: Dict[str, Set[str]] = {"parameter": parameters, "buffer": set(), "submodule": set()}
        stored: Set[str] = set()  # the attributes its methods assign: what they call of those is no inherited method
        built: Dict[str, str] = {}
        if isinstance(cls, nodes.ClassDef):
            from fsdp_lint.analysis.known_apis import PARAMETER_CLASSES, PARAMETERISED_LEAVES

            classes = [cls] + self.tree_bases(cls)
            flags = ClassFlags(classes)
            for klass in classes:
                for assign in nodes_within(klass, nodes.Assign):
                    for target in assign.targets:
                        path = self_path(target)
                        if path is None:
                            continue
                        value = assign.value
                        if len(path) == 1:
                            stored.add(path[0])
                        if isinstance(value, nodes.Call) and len(path) == 1:
                            called = self.qualified_name(value.func) or ""
                            if called.startswith("torch.nn.") and called.rsplit(".", 1)[-1] in PARAMETERISED_LEAVES:
                                own.append(path[0])
                                built.setdefault(path[0], called)
                            if called in PARAMETER_CLASSES:
                                parameters.add(path[0])
                                built.setdefault(path[0], called)
                            elif self._builds_module(called):
                                kinds["submodule"].add(path[0])
                                built.setdefault(path[0], called)
                        tied = self_path(value)
                        if tied is not None and len(path) > 1 and len(tied) > 1 and path != tied:
                            guards = flags.guards(assign)
                            ties[(path, tied)] = ties[(path, tied)] & guards if (path, tied) in ties else guards
            for klass in classes:
                self._filed_attributes(klass, kinds, stored)
        facts = ClassFacts(
            tuple(dict.fromkeys(own)), (), frozenset(parameters), frozenset(kinds["buffer"]),
            frozenset(kinds["submodule"] - parameters - kinds["buffer"]), tuple(built.items()),
        )
        self._class_facts[qname] = facts  # what `shares_parameters` reads of the class itself
        facts = replace(facts, ties=tuple(
            (a, b, guards) for (a, b), guards in ties.items() if self.shares_parameters(qname, a) and self.shares_parameters(qname, b)
        ))
        self._class_facts[qname] = facts
        return facts

    def shares_parameters(self, qname: Optional[str], path: AttrPath) -> bool:
        """Whether the attribute at `path` of an object of class `qname` is a parameter or a module
        (`nn.Module.__setattr__` registers either where it is assigned: one side of a tie), as the
        classes on the way say: a parameter or submodule a class of the tree files, the parameter
        of a torch.nn leaf module (`known_apis.leaf_parameter`), or, where no class on the way is
        known, a module's `weight` or `bias`. A configuration's number (`self.config.hidden_size`)
        is neither: assigning it copies a value and shares nothing."""
        cls = qname
        for index, attr in enumerate(path):
            last = index == len(path) - 1
            if cls in known_apis.PARAMETER_CLASSES:
                return False  # an attribute of a tensor
            if known_apis.leaf_parameter(cls, attr):
                return last
            facts = self.class_facts(cls)
            if attr in facts.parameters:
                return last
            if attr in facts.submodules or attr in facts.param_attrs:
                cls = dict(facts.built).get(attr)
                continue
            cls = None
            if last:
                return known_apis.module_parameter(attr)
        return True

    # ---- name resolution across modules -----------------------------------------------------------

    def qualified_name(self, expr: nodes.NodeNG) -> Optional[str]:
        """The name `expr` refers to, followed through the tree's re-exports; asked for the same
        node in every round of the facts and again by the rules, so remembered by node (the
        trees live as long as the analysis)."""
        known = self._memo.qualified
        if id(expr) not in known:
            known[id(expr)] = self.canonical(qualified_name(expr))
        return known[id(expr)]

    def binding(self, name: nodes.Name) -> Optional[nodes.NodeNG]:
        """`names.binding_of` for the name read at `name`, remembered likewise."""
        known = self._memo.bindings
        if id(name) not in known:
            known[id(name)] = binding_of(name, name.name)
        return known[id(name)]

    def canonical(self, qname: Optional[str], depth: int = 0) -> Optional[str]:
        """Follow re-exports through modules of the tree (`pkg/__init__.py: from .x import f`)."""
        if not qname or depth > _MAX_DEPTH or self._bound_by_no_import(qname):
            return qname
        module, rest = self._split_module(qname)
        if module is None or not rest:
            return qname
        if rest[0] not in module.locals:
            # bound, if at all, by a star import (`pkg/__init__.py: from .core import *`): the
            # last one whose module binds the name
            for base in reversed(_star_imported(module)):
                found = self.canonical(".".join([base] + rest), depth + 1)
                source, left = self._split_module(found)
                if source is not None and left and left[0] in source.locals:
                    return found
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

    def _bound_by_no_import(self, qname: str) -> bool:
        """Whether `canonical` would return `qname` as it is, known without parsing: the module
        of the tree it resolves through (the longest prefix that compiles) binds the next part
        of it by no import. A module that does not compile is passed over, as `_split_module`
        does; one whose compiling is not known stops the shortcut."""
        if self._index is None:
            return False
        parts = qname.split(".")
        for index in range(len(parts) - 1, 0, -1):
            name = ".".join(parts[:index])
            if name in self.modules or self._index.in_tree(name):
                bound = self._index.import_bound(name)
                if bound is None or parts[index] in bound:
                    return False
                compiles = self._index.compiles(name)
                if compiles is None:
                    return False
                if compiles:
                    return True
        return True

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

    def decorator_users(self, name: str) -> Mapping[str, FrozenSet[str]]:
        """`ModuleIndex.decorator_users`; none where every module was given (all are parsed)."""
        return self._index.decorator_users(name) if self._index is not None else {}

    def resolve_callable(self, qname: Optional[str]) -> Optional[Union[nodes.FunctionDef, nodes.ClassDef]]:
        """The function or class of the tree that a qualified name denotes."""
        if not qname:
            return None
        module, rest = self._split_module(qname)
        if module is None or not rest:
            return None
        return _member(_last_definition(module, rest[0]), rest[1:])

    def callable_for_flow(self, qname: Optional[str]) -> Union[nodes.FunctionDef, nodes.ClassDef, Deferred, None]:
        """`resolve_callable` for a call the flows apply, or Deferred when the name resolves into
        a module they do not enter (decided without parsing it: by the module names alone)."""
        if self.entered is None or not qname:
            return self.resolve_callable(qname)
        parts = qname.split(".")
        for index in range(len(parts), 0, -1):
            name = ".".join(parts[:index])
            if name not in self.modules and (self._index is None or not self._index.in_tree(name)):
                continue
            if name not in self.entered:
                return Deferred(name)
            module = self.module(name)
            if module is None:
                continue
            rest = parts[index:]
            if not rest:
                return None
            return _member(_last_definition(module, rest[0]), rest[1:])
        return None

    def resolve_method(
        self, receiver: Obj, self_root: Optional[Root], method: str, self_class: Optional[nodes.ClassDef] = None,
        after: Optional[nodes.ClassDef] = None,
    ) -> Union[nodes.FunctionDef, Deferred, None]:
        """`receiver.method` when the receiver's class is known (its own, as constructed or as the
        calling context says, else the class whose method is being walked for `self`), searched
        through its bases in order. Deferred when the class, or a base searched before the method
        is found, lies in a module the flows do not enter. `after`: `super(after, receiver)`, the
        search passes over the classes up to `after` in that order (from `after` itself where
        the receiver's class is not known to derive from it)."""
        cls: Union[nodes.FunctionDef, nodes.ClassDef, Deferred, None] = None
        if receiver.cls:
            cls = self.callable_for_flow(receiver.cls)
        elif receiver.root == self_root and not receiver.attrs and self_root is not None:
            cls = self_class
        if isinstance(cls, Deferred) and after is None:
            return cls
        if after is not None and (not isinstance(cls, nodes.ClassDef) or not self._derives(cls, after)):
            cls = after
        if not isinstance(cls, nodes.ClassDef):
            return None
        pending, seen = [cls], set()
        passed = after is None  # past `after` in the search order
        while pending and len(seen) < 32:
            klass = pending.pop(0)
            if id(klass) in seen:
                continue
            seen.add(id(klass))
            found = _method(klass, method) if passed else None
            passed = passed or klass is after
            if found is not None:
                return found
            for base in klass.bases:
                resolved = self.callable_for_flow(self.qualified_name(base))
                if isinstance(resolved, Deferred) and passed:
                    return resolved
                if isinstance(resolved, nodes.ClassDef):
                    pending.append(resolved)
        return None

    def called_method(
        self, receiver: Obj, self_root: Optional[Root], self_class: Optional[nodes.ClassDef],
    ) -> Union[nodes.FunctionDef, Deferred, None]:
        """What calling `receiver` runs (`receiver(x)`), as `resolve_method` finds it: its class's
        `__call__` where the tree defines one, else its `forward`, which `nn.Module.__call__`
        runs between the module's hooks."""
        for name in ("__call__", "forward"):
            target = self.resolve_method(receiver, self_root, name, self_class)
            if target is not None:
                return target
        return None

    def _derives(self, cls: nodes.ClassDef, base: nodes.ClassDef) -> bool:
        """Whether `base` is `cls` or one of its bases of the tree."""
        pending, seen = [cls], set()
        while pending and len(seen) < 32:
            klass = pending.pop()
            if klass is base:
                return True
            if id(klass) in seen:
                continue
            seen.add(id(klass))
            pending.extend(found for found in map(self.callable_for_flow, map(self.qualified_name, klass.bases)) if isinstance(found, nodes.ClassDef))
        return False

    def _builds_module(self, qname: Optional[str]) -> bool:
        """Whether a call of `qname` builds a module: a torch.nn one, or a class of the tree over `nn.Module`."""
        from fsdp_lint.analysis import class_values, known_apis

        return known_apis.constructs_module(qname) or class_values.is_or_extends(self, qname, known_apis.MODULE_CLASSES)

    @staticmethod
    def _filed_attributes(klass: nodes.ClassDef, kinds: Dict[str, Set[str]], stored: Set[str]) -> None:
        """The attributes `klass`'s methods register by name (`self.register_buffer("scale", t)`),
        and those of the ones they assign that they call (`self.head(x)`): submodules."""
        from fsdp_lint.analysis.known_apis import registered_attribute

        for call in nodes_within(klass, nodes.Call):
            if not (isinstance(call.func, nodes.Attribute) and isinstance(call.func.expr, nodes.Name) and call.func.expr.name == "self"):
                continue
            registered = registered_attribute(call)
            if registered is not None:
                kinds[registered[0]].add(registered[1])
            elif call.func.attrname in stored:
                kinds["submodule"].add(call.func.attrname)

    def tree_bases(self, cls: nodes.ClassDef) -> List[nodes.ClassDef]:
        """The bases of `cls` defined in the tree, transitively, nearest first, parsing their
        modules (what a class declares includes what its bases do)."""
        return _bases(cls, lambda base: self.resolve_callable(self.qualified_name(base)))


def _bases(cls: nodes.ClassDef, resolve: Callable[[nodes.NodeNG], object]) -> List[nodes.ClassDef]:
    found: List[nodes.ClassDef] = []
    pending = [cls]
    while pending and len(found) < 32:
        for base in pending.pop(0).bases:
            resolved = resolve(base)
            if isinstance(resolved, nodes.ClassDef) and resolved is not cls and resolved not in found:
                found.append(resolved)
                pending.append(resolved)
    return found


def scopes_of(module: nodes.Module) -> Iterator[nodes.NodeNG]:
    """The module's top level, then every function and method (nested ones too), in the order of
    `nodes_of_class`."""
    yield module
    yield from defined_in(module, nodes.FunctionDef)


def defined_in(module: nodes.Module, kind: type) -> Iterator[nodes.NodeNG]:
    """Every `def` or `class` statement of `kind` in the module, nested ones too, in the order of
    `nodes_of_class`. A definition is a statement, so only statements (and the `except`/`case`
    clauses that hold them) are walked, not the expressions that make up most of a tree."""
    pending = list(reversed(list(module.get_children())))
    while pending:
        node = pending.pop()
        if isinstance(node, kind):
            yield node
        pending.extend(
            child for child in reversed(list(node.get_children()))
            if child.is_statement or isinstance(child, nodes.MatchCase)
        )


def _names_reached(
    func: nodes.FunctionDef, direct: Callable[[nodes.FunctionDef], Tuple[FrozenSet[str], Tuple[nodes.FunctionDef, ...]]], most: int,
) -> FrozenSet[str]:
    """The names `direct` finds in `func` and in the functions it may call, and those call in
    turn (`direct` gives a function's own names and its callees), up to `most` functions."""
    found: Set[str] = set()
    pending, seen = [func], {id(func)}
    while pending and len(seen) <= most:
        names, callees = direct(pending.pop())
        found |= names
        for callee in callees:
            if id(callee) not in seen:
                seen.add(id(callee))
                pending.append(callee)
    return frozenset(found)


def _star_imported(module: nodes.Module) -> List[str]:
    """The modules `module`'s top level imports every name of (`from .core import *`), in order."""
    return [
        relative_module(module, statement.modname, statement.level) for statement in module.body
        if isinstance(statement, nodes.ImportFrom) and statement.names == [("*", None)]
    ]


def _last_definition(module: nodes.Module, name: str) -> Optional[Union[nodes.FunctionDef, nodes.ClassDef]]:
    bindings = module.locals.get(name, ())
    if bindings and isinstance(bindings[-1], (nodes.FunctionDef, nodes.ClassDef)):
        return bindings[-1]
    return None


def _member(found: Optional[Union[nodes.FunctionDef, nodes.ClassDef]], names: List[str]) -> Optional[Union[nodes.FunctionDef, nodes.ClassDef]]:
    """The method or nested function that `names` name in turn inside `found` (`Class.method`,
    `outer.inner`: the qualified name of a closure used as a value)."""
    for name in names:
        if not isinstance(found, (nodes.ClassDef, nodes.FunctionDef)):
            return None
        found = _method(found, name)
    return found


def _method(cls: Optional[Union[nodes.ClassDef, nodes.FunctionDef]], name: str) -> Optional[nodes.FunctionDef]:
    if cls is None:
        return None
    bindings = cls.locals.get(name, ())
    if bindings and isinstance(bindings[-1], nodes.FunctionDef):
        return bindings[-1]
    return None
