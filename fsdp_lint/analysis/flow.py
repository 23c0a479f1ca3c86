"""The flow interpreter: one walk over a function body (or a module's top level), in one calling
context, along the paths the code can take.

Statements run in order. At a branch each arm starts from the state before it and the states are
joined where the arms meet; every fact the rules order (a shard, an optimizer built, a parameter
replaced) records the branch outcomes that lead to it (`fsdp_lint.analysis.paths`), so "A happens
before B" holds only when one run passes through both. Loop bodies run until their bindings stop
changing (twice at most: a second pass sees what the first one bound).

Calls of functions of the linted tree are analysed in the context of the call
(`fsdp_lint.analysis.context`): the callee sees what the caller knows of the objects it passes,
and the caller gets back what the callee did to them, what it stored on them and what it
returned, with object identity kept through tuples, dicts and the APIs that return their argument.
A class called constructs an object and runs its `__init__` on it.

Each expression gets an abstract value (`fsdp_lint.analysis.values`), kept per node so that
rules can ask for it without re-running side effects.
"""

from __future__ import annotations

import builtins
import weakref
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, AbstractSet, Callable, Dict, FrozenSet, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple, Type, TypeVar, Union

from astroid import nodes

from fsdp_lint import fsdp1_api
from fsdp_lint.analysis import (
    class_values, containers, deciding_modules, environment, known_apis, loaded_keys, loads, module_globals, named_constants, paths, registrations, syntax,
    truths,
)
from fsdp_lint.analysis.call_arguments import call_argument
from fsdp_lint.analysis.collectives import Collective, collective
from fsdp_lint.analysis.context import (
    ABOVE, UNKNOWN_CONTEXT, AttrPath, Context, FlagConditions, Materialised, MetaState, ObjectFacts, Origin, Rebuild, RootMapper,
    ShardEvent, Summary,
)
from fsdp_lint.analysis.closures import free_variables
from fsdp_lint.analysis.conditions import mentions_rank, passed_names, rank_only_branch, rank_test, test_truth
from fsdp_lint.analysis.flags import exact_flags, test_flags
from fsdp_lint.analysis.loads import Loaded, StateDictLoad
from fsdp_lint.analysis.module_globals import (
    NOTHING, GlobalPath, ModuleGlobals, assigned_literal, bound_globals, global_root, is_global, paths_to, registry, registry_entries, registry_of,
)
from fsdp_lint.analysis.names import FULLY_SHARD, PARTIAL
from fsdp_lint.analysis.paths import EMPTY, Path
from fsdp_lint.analysis.values import (
    GATHERED,
    RANK_NAMED,
    UNKNOWN,
    UNNAMED,
    WHOLE_STATES,
    WILDCARD,
    WORLD_SIZE,
    BoundMethod,
    ClassRef,
    Constant,
    Container,
    Deferred,
    Either,
    FileState,
    Fresh,
    Gathered,
    Iterable,
    Obj,
    Optimizer,
    Options,
    ParamGroups,
    Params,
    Partial,
    RankNamed,
    Root,
    ShardFunction,
    StateDict,
    Truth,
    Unknown,
    Value,
    anonymous,
    anonymous_attrs,
    compared,
    constant,
    contained,
    contained_on_runs,
    either,
    guarded,
    guarded_options,
    is_member,
    is_wildcard,
    mapped_options,
    member,
    objects_in,
    options_of,
    path_covers,
    path_must_cover,
    related_objects,
    runs_through,
    travels,
    truth,
)

if TYPE_CHECKING:
    from fsdp_lint.analysis.project import Project

__all__ = ["AttrAssignment", "CallListener", "Flow", "Point", "ShardEvent", "Summary", "scope_key"]

# How deep calls are followed with the rules listening (the facts follow them deeper).
MAX_RULE_DEPTH = 8
# How many levels down a calling context carries what is stored on the objects stored on a
# parameter (`self.state.fsdp_config.sync_module_states`: two).
STORED_DEPTH = 2
MetaKey = Tuple[Root, AttrPath]  # an object built on the meta device, by the name a walk knows it (`meta_object`)
_Kind = TypeVar("_Kind")  # a kind of value a rule looks for (`values_on_runs`)
_Made = TypeVar("_Made", ShardEvent, Rebuild)  # what a summary carries with the path it was made on (`_as_returned`)
_Key = TypeVar("_Key")  # what flag conditions are kept for: a sharded path of a parameter, or a shared object
Written = Optional[Tuple[object, ...]]  # the constants a write gives an attribute; None where no constant gives the value


def scope_key(scope: nodes.NodeNG) -> str:
    """A key for a scope that is stable across processes (used in roots, caches and --jobs).
    Made once per scope, for as long as its tree lives: every root of a walk holds it, and one
    string shared by all of them is smaller and faster to compare than one made per use."""
    key = _SCOPE_KEYS.get(scope)
    if key is None:
        module = scope.root()
        key = _SCOPE_KEYS[scope] = module.name if scope is module else f"{module.name}:{scope.qname()}:{scope.lineno}"
    return key


_SCOPE_KEYS: "weakref.WeakKeyDictionary[nodes.NodeNG, str]" = weakref.WeakKeyDictionary()


class Point(NamedTuple):
    """A place in one walk: its rank in program order and the branch outcomes that lead to it."""

    seq: int
    path: Path


@dataclass
class AttrAssignment:
    """`owner.attr = value` at `node` (the target), at that point of the walk."""

    node: nodes.AssignAttr
    owner: Value
    attr: str
    value: Value
    value_node: Optional[nodes.NodeNG]
    seq: int
    path: Path = EMPTY


class OptimizerBuilt(NamedTuple):
    seq: int
    optimizer: Optimizer
    path: Path
    taken: Optional[int] = None  # where the list of parameters it was given was collected, if earlier


# The objects a call hands the function it calls: each parameter's root in the callee's walks, and
# an object this walk binds to it (by the object it denotes), one pair per object it may be.
Handed = Tuple[Tuple[Root, Obj], ...]


class CallListener:
    """What a rule sees of a flow: each call before it takes effect, and the end of the walk."""

    __slots__ = ()

    def on_call(self, node: nodes.Call, flow: "Flow") -> None:  # pragma: no cover - interface
        pass

    def on_function_end(self, flow: "Flow") -> None:  # pragma: no cover - interface
        pass

    def on_callee(
        self, flow: "Flow", call: nodes.NodeNG, func: nodes.FunctionDef, context: Context, origins: Dict[str, Origin],
        handed: Handed = (),
    ) -> None:
        """A function of the tree is called in `context`: the engine walks it with the rules.
        `handed`: the objects the call hands it, each by the callee's root for it (`Handed`)."""


@dataclass
class _State:
    """What a branch copies and joins: the bindings and the path."""

    env: Dict[str, Value]
    attr_env: Dict[Tuple[Root, AttrPath], Value]
    path: Path


class Flow:
    """The state of one walk over one scope in one calling context."""

    def __init__(
        self, project: "Project", scope: nodes.NodeNG, listener: Optional[CallListener] = None,
        context: Context = UNKNOWN_CONTEXT, origins: Optional[Dict[str, Origin]] = None,
        chain: Tuple[nodes.NodeNG, ...] = (),
    ):
        self.project = project
        self.scope = scope
        self.key = scope_key(scope)
        self.listener = listener
        self.context = context
        self.origins = origins or {}
        self.chain = chain  # the calls that led here from an entry point, outermost first
        self.env: Dict[str, Value] = {}
        self.attr_env: Dict[Tuple[Root, AttrPath], Value] = {}
        self._stored_at: Dict[Tuple[Root, AttrPath], int] = {}  # when each attribute got its value
        # when each flag of an object got a new version, and the constants written then (None:
        # values no constant gives) (`_rebind_flag`)
        self._rebinds: Dict[Tuple[Root, AttrPath], List[Tuple[int, Written]]] = {}
        self._last_rebound = -1  # the latest of those
        self.values: Dict[nodes.NodeNG, Value] = {}
        self.events: List[ShardEvent] = []
        self.replacements: List[ShardEvent] = []  # parameters replaced (load_state_dict(assign=True), new nn.Parameter)
        self.reregistrations: List[ShardEvent] = []  # parameters handed to FSDP again (`reregistered_after`)
        self.optimizers: List[OptimizerBuilt] = []
        self.rebuilds: List[Rebuild] = []  # optimizers' param groups rebuilt (`rebuilt_after`)
        self.yields: List[Point] = []  # a generator's `yield`s, and what they yield
        self.yielded: List[Value] = []
        self._exits: List[_Exit] = []  # `with cm(...):` of a `@contextmanager` of the tree, until its block ends
        self._reregistered_on_return: List[Obj] = []  # the caller hands their parameters to FSDP again (`ObjectFacts.reregistered`)
        self.handoffs: List[Tuple[Point, str, Optimizer]] = []  # optimizers passed to a call, with the call's name (`handed_to`)
        self.forwards: List[Tuple[Point, Obj]] = []  # modules called (`model(batch)`)
        self.collectives: List[Collective] = []  # issued here or by the functions called (`Summary.collectives`)
        self.unsharded: List[Obj] = []
        self.escaped: Set[Root] = set()
        self._not_none: Set[Root] = set()  # parameters whose argument the calling context says is not None
        # objects known to be modules true in a test and instances of no builtin type nor of torch's
        # wrappers: parameters the calling context says are (`ObjectFacts.plain`), containers of
        # modules built with children (`known_apis.built_true`)
        self._plain: Set[Root] = set()
        self._told: FrozenSet[str] = frozenset()  # parameters that are flags the calling context has outcomes of
        self.compiled: Set[Tuple[Root, AttrPath]] = set()  # objects `torch.compile` returned (`known_apis.IDENTITY_FUNCTIONS`)
        self.returns: List[Value] = []
        self._returned_at: List[Optional[truths.Alternatives]] = []  # the way to each return about objects (`_object_path`)
        self._captured: Dict[paths.Literal, Path] = {}  # outcomes of tests that flags describe whole (`_outcome`)
        self._chosen_outcomes: Dict[paths.Literal, truths.Alternatives] = {}  # others, by the objects runs choose (`_outcome`)
        self.conditions: List[Tuple[nodes.NodeNG, bool]] = []
        self.attr_assignments: List[AttrAssignment] = []
        self.path: Path = EMPTY
        # the loops the walk is in, each with the path where it was entered and what its passes
        # bind anew (`syntax.loop_bound`); the outcomes of tests in them that tell the passes apart,
        # not the runs (`_issued`)
        self._loops: List[Tuple[Path, FrozenSet[str]]] = []
        self._pass_outcomes: Set[paths.Literal] = set()
        # the loops the walk is in that count their passes (`syntax.pass_counter`): the counter's
        # name, and the objects its first pass reached by subscripting with it (`items[i]`)
        self._counted: List[Tuple[str, List[Obj]]] = []
        self._left: List[Path] = []  # the paths of runs an arm ended (`return`, `raise`): `_join` excludes them
        self._raising = False  # the statement being walked raises on every run that gets here (`_raises`)
        # The class each local object was constructed from, the objects built under a meta-device
        # context (`with torch.device("meta")`), and the objects stored into an attribute, item or
        # container (so that code elsewhere may reach them).
        self.classes: Dict[Root, str] = {}
        self.meta_objects: Set[MetaKey] = set()
        self._built_on: Dict[MetaKey, Path] = {}  # the way to where each was built here: it exists on those runs only
        self.meta_steps: List[Tuple[Point, MetaKey, MetaState]] = []  # `to_empty`, initialisation (`meta_state`)
        self._implied: Dict[paths.Literal, Path] = {}  # the flags each test outcome fixes (`materialised`)
        self._returned_writes: List[Tuple[Obj, Value]] = []  # attributes of its own objects a `return` in an arm hands back
        self._leaving: List[Tuple[Point, Value]] = []  # where runs leave the function, with what they return: its returns, its end (`_meta_summary`)
        self.stored: Set[Root] = set()
        # The modules whose code this walk could not enter (deferred calls, its own and its
        # callees'), and the functions of the tree it called: what the walk's validity and the
        # tree's entry points depend on (`Project.enter`, `Project.is_entry`).
        self.deferred: Set[str] = set()
        self.calls: Set[str] = set()
        self._undecided: List[Tuple[Path, nodes.NodeNG]] = []  # branch tests left open, with their arms' literals
        self._seq = 0
        self._meta_depth = 0
        self._generations: Dict[str, int] = {}
        self._versions: Dict[str, int] = {}
        self._candidates: Dict[int, OptimizerBuilt] = {}
        # where each list of parameters was collected (`Params.taken`): the comprehension, or the
        # call that returned one its callee collected
        self._collections: Dict[int, nodes.NodeNG] = {}
        self._adopted: Dict[Tuple[Root, AttrPath], Value] = {}  # attributes as the context gave them
        self._attr_version = 0  # bumped at every change of attr_env: keys the index below
        self._holders: Tuple[int, Dict[Root, List[Tuple[Tuple[Root, AttrPath], Obj]]]] = (-1, {})  # `_holders_of`
        self._owners: Tuple[int, Dict[Root, List[Tuple[AttrPath, Value]]]] = (-1, {})  # `_owned_by`
        self._names: Tuple[int, Dict[Obj, Tuple[Obj, ...]]] = (-1, {})  # `names_of`
        self.self_root: Optional[Root] = None
        self.self_class: Optional[nodes.ClassDef] = None
        self.param_roots: Dict[str, Root] = {}
        self.known_params: Set[Root] = set()  # parameters the calling context says something about
        self._certain: Set[Tuple[Root, AttrPath]] = set()  # sharded on every run to the call (`ObjectFacts.certain`)
        self._deferred_at: Dict[Tuple[Root, AttrPath], str] = {}  # results of deferred calls the caller passed (`ObjectFacts.deferred`)
        self._imported: Set[str] = set()  # the modules whose globals this walk read by import (`_imported_global`)
        self._rebound_globals: Set[Root] = set()  # the globals a function rebound here, or the caller said it had (`_rebind_global`)
        if isinstance(scope, nodes.FunctionDef):
            self._bind_parameters(scope)
        self._inherit_globals()
        self._entry_path = self.path  # what the caller said of the runs that call (`_as_returned`)

    # ---- entry points -------------------------------------------------------------------------

    def run(self) -> "Flow":
        if isinstance(self.scope, nodes.ClassDef):
            self._drive_lifecycle(self.scope)
            self._leaving.append((self.point(), UNKNOWN))
        elif self._block(self.scope.body) and not syntax.leaves(self.scope.body):
            self._leaving.append((self.point(), UNKNOWN))
        self._demand_deciding()
        if self.listener is not None:
            self.listener.on_function_end(self)
        return self

    def _demand_deciding(self) -> None:
        """A test this walk left undecided on the path to one of its shard events: the modules
        not entered that could decide it are demanded (`deciding_modules`), and the walk depends
        on them as on a deferred call (`Project.enter` walks it again once they are entered)."""
        if not self._undecided or not self.events:
            return
        on_paths = frozenset().union(*(event.path for event in self.events))
        for literals, test in self._undecided:
            if literals & on_paths:
                modules = deciding_modules.modules_deciding(self, test)
                if modules:
                    self.deferred |= modules
                    self.project.demand(modules)

    def summary(self) -> Summary:
        returning = self._returning()
        # each with its flags as the caller reads them once the call returns (`_current_flags`)
        own_events = self._with_roots_made(self._as_returned([self._as_left(e) for e in self.events if not e.inherited], returning))
        writes, local = self._attribute_writes()
        # each value on the runs of the `return` that gives it, as far as outcomes about objects tell them
        returned = guarded([(value, _shared(at) - returning) for value, at in zip(self.returns, self._returned_at)]) if self.returns else UNKNOWN
        if any(isinstance(option, Truth) for option in options_of(returned)):
            # a described boolean, on the way to each return; one bound on several arms (`should =
            # should and cfg.flag` under `if isinstance(cfg, A):`) is described where it is
            # whichever of its options
            returned = truths.returned([truths.whichever_of(value) for value in self.returns], self._returned_at)
        writes += _reached(local, [returned] + [value for _, value in writes])
        writes += [write for write in self._returned_writes if write not in writes]
        reachable = {obj.root for value in [returned] + [value for _, value in writes] for obj in related_objects(value)}
        whole = Summary(
            self.key, self.param_roots, self.self_root, own_events, self._as_returned(self.replacements, returning),
            set(self.escaped), returned, writes, self._meta_summary(), [built.optimizer for built in self.optimizers],
            frozenset(self.deferred), [(name, optimizer) for _, name, optimizer in self.handoffs],
            collectives=tuple(dict.fromkeys((c.what, c.at) for c in self.collectives if c.every_run)),
            reregistrations=self._as_returned(self.reregistrations, returning), plain=frozenset(r for r in self._plain if r in reachable and self.is_local(r)),
            rebinds=self._rebinds_held(),
        )
        rebuilds = [r for r in self.rebuilds if any(
            isinstance(o, Optimizer) or isinstance(o, Obj) and (not self.is_local(o.root) or o.root in reachable)
            for o in options_of(r.target)
        )]  # of an optimizer the caller can reach
        whole.forwards = list(dict.fromkeys(
            (called, self._forward_after_shard(called, at)) for at, called in self.forwards
            if at.seq >= 0 and (not self.is_local(called.root) or called.root in reachable)
        ))  # of a module the caller can reach
        if self.yields and self._is_context_manager():
            return self._split_at_yield(whole, rebuilds)
        # of an object the caller can reach: a caller asks `_compiled` only of its values, and the
        # caller's copy of one of its callee's own objects that no value gives back would be
        # carried by every caller up the chain, a new one at each call (accelerate: 170,000 of them
        # in 2,581 summaries, 99.8% unreachable)
        compiled = [
            Obj(root, attrs) for root, attrs in sorted(self.compiled) if self._held_by_caller(root) or root in reachable
        ]
        return replace(whole, rebuilds=self._as_returned(_latest(rebuilds), returning), compiled=compiled)

    def _rebinds_held(self) -> Tuple[Tuple[Obj, Written], ...]:
        """The flags of objects the caller holds that this walk gave new versions, each with every
        constant written (`Summary.rebinds`)."""
        found = []
        for (root, attrs), rebinds in self._rebinds.items():
            if self._held_by_caller(root):
                written = [w for _, w in rebinds]
                found.append((Obj(root, attrs), None if None in written else tuple(dict.fromkeys(c for w in written for c in w))))  # type: ignore[union-attr]
        return tuple(found)

    def _attribute_writes(self) -> Tuple[List[Tuple[Obj, Value]], Dict[Root, List[Tuple[AttrPath, Value]]]]:
        """The attributes this walk set: those of objects the caller holds (its parameters',
        globals', the caller's own), and by object those of the objects it built itself."""
        writes = []
        local: Dict[Root, List[Tuple[AttrPath, Value]]] = {}
        for (root, attrs), value in self.attr_env.items():
            if self._adopted.get((root, attrs), _ABSENT) is value:
                continue  # as the caller gave it: not a write
            if self._held_by_caller(root):
                writes.append((Obj(root, attrs), value))
            elif self.is_local(root):
                local.setdefault(root, []).append((attrs, value))
        return writes, local

    def _returning(self) -> Path:
        """The outcomes of this function's own branches that every run leaving it normally took
        (the arm that did not raise, the check that passed): they hold in the caller once the
        call returned. What the caller said of the runs that call is not among them."""
        if not self._leaving:
            return EMPTY
        return frozenset.intersection(*(point.path for point, _ in self._leaving)) - self._entry_path

    def _as_returned(self, made: List[_Made], returning: Path) -> List[_Made]:
        """Shard events (or rebuilds) as a caller sees them once the call returned: what was made
        before each exit on the outcomes that every returning run took (`_returning`) is no
        helper's own condition (`prepare()` shards the root after `if kind == "net": ... else:
        raise`). What a shard made true stays."""
        if not returning:
            return list(made)
        found = []
        for item in made:
            held = returning & item.path
            if isinstance(item, ShardEvent):
                held -= _made_fsdp_module(item.target)
            if held and all(item.seq < point.seq for point, _ in self._leaving):
                item = replace(item, path=item.path - held)
            found.append(item)
        return found

    def _dcp_loaded(self, node: nodes.Call, loaded: Value) -> None:
        """`dcp.load(loaded)` loads in place into the tensors it is given. An entry of the dict
        whose class defines `state_dict` is a `Stateful` (torch 2.13's DCP calls its
        `state_dict()`, loads into the tensors that returns, then calls its `load_state_dict`
        with them): what its `state_dict()` returns is loaded (torchtitan's `ModelWrapper`,
        `get_model_state_dict(model)`), and its `load_state_dict` runs."""
        states = [loaded]
        entries = [item for option in options_of(loaded) if isinstance(option, Container) and option.keys is not None for item in option.items]
        entries += [self.canonical(option.child(WILDCARD)) for option in options_of(loaded) if isinstance(option, Obj)]  # a dict a caller built
        for entry in (o for item in entries for o in options_of(item) if isinstance(o, Obj)):
            getter = self.project.resolve_method(entry, self.self_root, "state_dict", self.self_class)
            if isinstance(getter, nodes.FunctionDef):
                state = self._apply_summary(node, getter, entry, [], {})
                states.append(state)
                setter = self.project.resolve_method(entry, self.self_root, "load_state_dict", self.self_class)
                if isinstance(setter, nodes.FunctionDef):
                    self._apply_summary(node, setter, entry, [state], {})
        for state in (found for value in states for found in contained(value, StateDict)):
            if isinstance(state.owner, Obj) and not state.copies:
                self._advance(state.owner, MetaState.INITIALISED)

    def _with_roots_made(self, events: List[ShardEvent], at: Optional[nodes.NodeNG] = None) -> List[ShardEvent]:
        """Shard events as a caller sees them, each of a module inside another that a
        `fully_shard` of this walk makes an `FSDPModule` on every run that made it and returned,
        under a condition of its own (`if use_fsdp: <blocks>; fully_shard(model)`), with that
        module's `FSDPModule` literal: a caller, or its callee, that finds `model` no `FSDPModule`
        (`isinstance(model, (FSDPModule, DDP))` false) is on no run that sharded the blocks,
        though it cannot name the condition. Where the outer shard is on every run, it says nothing.
        With `at`, a call after them: as its callee sees the events of this walk before it, the
        outer shard made on every run that made the inner one and reached `at`."""
        outers = [
            (outer, own) for outer in events
            if not outer.above and not outer.guarded and not outer.inherited and not any(map(is_wildcard, outer.target.attrs))
            for own in [_conditions(outer) - self._entry_path] if own
        ]
        if not outers:
            return events
        found = []
        for event in events:
            made = [
                paths.fsdp_module(outer.target.root, outer.target.attrs) for outer, own in outers
                if outer is not event and all(paths.holds_on(literal, event.path) for literal in own)
                and self.contains(outer.target, event.target, strict=True, must=True) and syntax.runs_whenever(outer.node, at or event.node, self.scope)
            ] if not event.inherited else []
            found.append(replace(event, path=event.path | frozenset(made)) if made else event)
        return found

    def _as_left(self, event: ShardEvent) -> ShardEvent:
        """`event` with the flags of its way as the walk's end reads them (`_current_flags`)."""
        flags = paths.flag_literals(event.path)
        current = self._current_flags(event.path, event.seq, self.scope)
        return event if current == flags else replace(event, path=(event.path - flags) | current)

    def _split_at_yield(self, whole: Summary, rebuilds: List[Rebuild]) -> Summary:
        """A `@contextmanager` generator's summary as `with` applies it: what a run does before
        its `yield` at the `with` (with the value it yields as what `as` binds), what it does after
        (`exit`) where the block ends. The rest (attributes, escapes, meta states) is the state the
        whole run leaves, applied at the `with`."""
        def later(seq: int, path: Path) -> bool:
            return any(self.happens_before(at, Point(seq, path)) for at in self.yields)

        exit_part = Summary(
            self.key, self.param_roots, self.self_root,
            [e for e in whole.events if later(e.seq, e.path)], [e for e in whole.replacements if later(e.seq, e.path)],
            reregistrations=[e for e in whole.reregistrations if later(e.seq, e.path)],
            optimizers=[built.optimizer for built in self.optimizers if later(built.seq, built.path)],
            deferred=whole.deferred, rebuilds=_latest([r for r in rebuilds if later(r.seq, r.path)]),
        )
        return replace(
            whole, events=[e for e in whole.events if not later(e.seq, e.path)],
            replacements=[e for e in whole.replacements if not later(e.seq, e.path)],
            reregistrations=[e for e in whole.reregistrations if not later(e.seq, e.path)],
            optimizers=[built.optimizer for built in self.optimizers if not later(built.seq, built.path)],
            rebuilds=_latest([r for r in rebuilds if not later(r.seq, r.path)]),
            returns=either(self.yielded), exit=exit_part,
        )

    def _is_context_manager(self) -> bool:
        decorators = self.scope.decorators.nodes if isinstance(self.scope, nodes.FunctionDef) and self.scope.decorators else []
        return any(self.qualified_name(d) in known_apis.CONTEXT_MANAGER_DECORATORS for d in decorators)

    # ---- queries for rules ------------------------------------------------------------------------

    def value(self, node: nodes.NodeNG) -> Value:
        return self.values.get(node, UNKNOWN)

    def options(self, node: nodes.NodeNG) -> Tuple[Value, ...]:
        """The values an expression may have here (several where branches bound different ones)."""
        return options_of(self.value(node))

    def names_rank_file(self, node: nodes.NodeNG) -> bool:
        """Whether an expression (a file to save to or load from) names a file of this rank's own
        on every run: built from the rank here (its text, or the one assignment it reads:
        `mentions_rank`), or a value built from it anywhere (`values.RankNamed`: in a helper that
        made the name, or in a caller that passed it)."""
        options = self.options(node)
        return mentions_rank(node) or bool(options) and all(isinstance(option, RankNamed) for option in options)

    def _rank_named(self, node: nodes.NodeNG) -> bool:
        """Whether a part of a file name being built makes it one of this rank's (`RankNamed`):
        its value, or its own text; not what a name reads (`mentions_rank` follows one assignment:
        a module's `MODEL_FILE = "mp_rank_00_model_states.pt"`, one file every rank reads, is the
        value the walk holds for it, no name of the rank)."""
        return isinstance(self.value(node), RankNamed) or (
            isinstance(node, (nodes.Name, nodes.Attribute, nodes.JoinedStr, nodes.Const, nodes.Call)) and "rank" in node.as_string().lower()
        )

    def _builds_rank_name(self, node: nodes.Call, func_value: Value) -> bool:
        """A call that builds a file name from one built from the rank (`os.path.join(d,
        f"rank{r}.pt")`, `name.with_suffix(".tmp")`, `"shard_{}.pt".format(rank)`)."""
        func = node.func
        if self.qualified_name(func) not in known_apis.FILE_NAME_BUILDERS:
            if not isinstance(func, nodes.Attribute):
                return False
            if isinstance(self.value(func.expr), RankNamed):
                return True
            if not (isinstance(func.expr, nodes.Const) and isinstance(func.expr.value, str)):
                return False
        return any(self._rank_named(arg) for arg in list(node.args) + [kw.value for kw in node.keywords or []])

    def sharded_object(self, node: nodes.NodeNG, holding: bool = False, must: bool = False) -> Optional[Obj]:
        """The object an expression may denote that may be sharded here (with `holding`: that
        may hold a sharded module; with `must`: that lies inside a module sharded on a run to
        here whichever modules their members are), among the values it may have, each on the
        runs that give it (`DoMINO()` where `isinstance(model, FSDPModule)` was false: on no run
        that sharded it); None if none."""
        for option, runs in guarded_options(self.value(node)):
            if not isinstance(option, Obj):
                continue
            if runs and not paths.compatible(self.path, runs):
                continue  # given on no run that gets here
            found = self.may_hold_shards(option, must=must, runs=runs) if holding else self.sharded_here(option, self.point(runs), must=must) is not None
            if found:
                return option
        return None

    def state_dict_load(self, call: nodes.Call) -> Optional[StateDictLoad]:
        """`x.load_state_dict(sd)` as torch's `nn.Module.load_state_dict` into a module `x` may be
        that may hold shards here, on the runs that give it (not a method of the tree's own class,
        which runs like any call of the tree), with what `sd` holds on the runs that give both: a
        full state dict where one run does; None where the call loads into no module that may
        hold shards (`fsdp_lint.analysis.loads`)."""
        func = call.func
        if not isinstance(func, nodes.Attribute) or func.attrname != "load_state_dict":
            return None
        given = call_argument(call, 0, known_apis.LOADED_STATE_PARAMETER)
        states = guarded_options(self.value(given)) if given is not None else ((UNKNOWN, EMPTY),)
        through_super = self._super_of(func.expr)  # an override's `super().load_state_dict(sd)`
        after, receivers = (through_super[0], ((through_super[1], EMPTY),)) if through_super else (None, guarded_options(self.value(func.expr)))
        found: Optional[StateDictLoad] = None
        for into, runs in receivers:
            if not isinstance(into, Obj) or isinstance(self.project.resolve_method(into, self.self_root, "load_state_dict", self.self_class, after=after), nodes.FunctionDef):
                continue
            for state, given_on in states:
                both = runs | given_on
                if not paths.compatible(runs, given_on) or not self.may_hold_shards(into, runs=both):
                    continue
                source = loads.full_source(state)
                owner = loads.module_state_owner(state)
                kind = Loaded.FULL if source else Loaded.SHARDED if owner is not None and self.may_hold_shards(owner) else Loaded.UNKNOWN
                load = StateDictLoad(into, kind, source)
                if kind is Loaded.FULL:
                    return load
                found = found or load
        return found

    def values_on_runs(self, node: nodes.NodeNG, kind: Type[_Kind]) -> Tuple[Tuple[_Kind, Path], ...]:
        """The values of `kind` an expression may be or hold here (`contained`), each with the
        branch outcomes every run on which it holds that one takes (`runs` of `may_hold_shards`)."""
        return contained_on_runs(self.value(node), kind)

    def point(self, runs: Path = EMPTY) -> Point:
        """Where the walk is now (rules call this from `on_call`): after every fact recorded so
        far, before the next; with `runs`, on the runs that also take those branch outcomes."""
        return Point(self._seq + 1, self.path | runs if runs else self.path)

    def objects_on_runs(self, node: nodes.NodeNG) -> List[Tuple[Obj, Path]]:
        """The module objects an expression may denote here, each with the branch outcomes every
        run on which it denotes that one takes (`model.model if is_actor(model) else model`)."""
        return [(obj, runs) for option, runs in guarded_options(self.value(node)) for obj in objects_in(option)]

    @staticmethod
    def happens_before(first: Point, second: Point) -> bool:
        """Whether one run of the function reaches `first` and then `second`."""
        return first.seq < second.seq and paths.compatible(first.path, second.path)

    def events_before(self, point: Optional[Point] = None, must: bool = False) -> List[ShardEvent]:
        """The shard events that one run can make before `point` (default: here); with `must`,
        only those that sharded what they name on the runs that made them (not the caller's
        shards of a path it matched through a name given at run time: `ShardEvent.guessed`)."""
        point = point or self.point()
        return [e for e in self.events if self.happens_before(Point(e.seq, e.path), point) and not (must and e.guessed)]

    def meta_object(self, obj: Obj, inside: bool = False) -> Optional[Obj]:
        """The object built on the meta device that `obj` is (with `inside`: or lies inside), by
        the name this walk knows it: `model` where it was built here, `self.model` in a method
        that a caller handed the object holding it; None for other objects."""
        if not self.meta_objects:
            return None
        found = self.canonical(obj)
        for length in range(len(found.attrs), -1 if inside else len(found.attrs) - 1, -1):
            if (found.root, found.attrs[:length]) in self.meta_objects:
                return Obj(found.root, found.attrs[:length])
        return None

    def meta_objects_run_by(self, called: Obj) -> List[Obj]:
        """The objects on the meta device that a forward of `called` runs: itself, or those it
        holds (a wrapper's forward runs the model stored in it, as `ran_forward` takes a forward
        of a module around a model for one of the model)."""
        found = self.meta_object(called)
        if found is not None:
            return [found]
        return [Obj(*key) for key in sorted(self.meta_objects) if self.contains(called, Obj(*key), strict=True, must=True)]

    def meta_state(self, obj: Obj, point: Optional[Point] = None) -> MetaState:
        """How far the object built on the meta device that `obj` is or lies in got on some run
        to this point (or to `point`): NONE when there is none."""
        found = self.meta_object(obj, inside=True)
        if found is None:
            return MetaState.NONE
        return max((state for _, state in self._steps_to((found.root, found.attrs), point or self.point())), default=MetaState.META)

    def materialised(self, obj: Obj, point: Optional[Point] = None) -> Optional[Tuple[MetaState, Path]]:
        """For an object built on the meta device (`meta_object`): how far every run to this
        point (or to `point`) got it, and the outcomes of a run that got it no further, beyond the
        point's own (empty where every run got it as far). A must-fact: after `if ckpt:
        load(model)` the model is initialised on no run where `ckpt` is false. None for other
        objects."""
        found = self.meta_object(obj)
        if found is None:
            return None
        return self._least((found.root, found.attrs), point or self.point(), MetaState.META)

    def _least(self, key: MetaKey, point: Point, floor: MetaState, own: bool = False) -> Tuple[MetaState, Path]:
        """The largest state above `floor` that every run to `point` took `key` to (with `own`: by
        this walk's steps, not those its context gave), and the outcomes of a run that got it no
        further; `floor` where some run took it nowhere."""
        start = point.path | self._built_on.get(key, EMPTY)  # a run that never built it is none of its runs
        if not paths.compatible(start, self._with_fixes(start)):
            return MetaState.INITIALISED, EMPTY  # no run to the point has it (nor is short of anything)
        steps = self._steps_to(key, point, own)
        run = EMPTY
        for state in (MetaState.INITIALISED, MetaState.EMPTY):
            if state <= floor:
                break
            found = paths.uncovered(start, [at.path for at, reached in steps if reached >= state], self._fixes)
            if found is None:
                return state, run
            run = found
        return floor, run

    def _steps_to(self, key: MetaKey, point: Point, own: bool = False) -> List[Tuple[Point, MetaState]]:
        """The steps of `key` that a run to `point` may take (with `own`: this walk's, not those
        its context gave), but an initialisation that a later `to_empty` on one of its runs may
        undo: `to_empty` gives every parameter new memory, whatever was loaded before (a LoRA
        layer's values set on the meta device, `load_state_dict(assign=True)` before it)."""
        steps = [(at, state) for at, stepped, state in self.meta_steps if stepped == key and self.happens_before(at, point) and (at.seq >= 0 or not own)]
        emptied = [at for at, state in steps if state == MetaState.EMPTY]
        if not emptied:
            return steps
        kept = []
        for at, state in steps:
            runs = _avoiding(at.path, [later.path for later in emptied if later.seq > at.seq]) if state == MetaState.INITIALISED else [at.path]
            kept.extend((Point(at.seq, run), state) for run in runs)
        return kept

    def _uninitialised_within(self, obj: Obj) -> bool:
        """Whether `obj` is, lies in or holds a sharded object on the meta device that some run to
        here left uninitialised (what FSD105 asks of a model)."""
        found = self.canonical(obj)
        here = self.point()
        return any(
            (self.contains(Obj(*key), found) or self.contains(found, Obj(*key))) and self.may_hold_shards(Obj(*key))
            and self._least(key, here, MetaState.META)[0] < MetaState.INITIALISED
            for key in sorted(self.meta_objects)
        )

    def _built_on_meta(self, key: MetaKey) -> None:
        self.meta_objects.add(key)
        self._built_on.setdefault(key, self.path)

    def _fixes(self, literal: paths.Literal) -> Path:
        return self._implied.get(literal, EMPTY)

    def _advance(self, obj: Obj, state: MetaState, condition: Path = EMPTY) -> None:
        """`obj`'s object may reach `state` here (on the runs that also take `condition`), and so
        may the objects on the meta device that hold it or that it holds (`model.inp.reset_parameters()`
        initialises part of `model`: the model is as far as any part of it may have got;
        `wrapper.to_empty()` materialises the model stored in it). A caller tells a callee which
        of its parameters are or hold one (`ObjectFacts.meta`)."""
        at = Point(self._tick(), self.path | condition)
        if not self.meta_objects:
            return
        found = self.canonical(obj)
        for key in sorted(self.meta_objects):
            if self.contains(Obj(*key), found) or self.contains(found, Obj(*key)):
                self.meta_steps.append((at, key, state))

    def is_local(self, root: Root) -> bool:
        return root[0] == self.key and root not in self.param_roots.values() and root != self.self_root

    def shown(self, obj: Obj) -> str:
        """`obj` as the code of this walk names it, for a message: by the variable it was made
        under where that still holds it (`model.layers[*]`, not the loop's `layer`); else an object
        a helper built as `m` and returned, bound here to `actor`, is `actor` (by the variable
        holding it, or holding what it is part of, or by the attribute it is stored in:
        `self.model`); an object no variable of this walk holds keeps the name it got where it
        was made (`Obj.display`)."""
        names = self.names_of(obj)
        for name in names:  # by the variable its root was bound to, where that still holds it
            bound = self.env.get(name.root[1])
            if isinstance(bound, Obj) and bound.root == name.root and not bound.attrs:
                return name.display
        for name in names:
            held = max(
                ((variable, value) for variable, value in self.env.items()
                 if isinstance(value, Obj) and value.root == name.root and value.attrs == name.attrs[: len(value.attrs)]),
                key=lambda item: len(item[1].attrs), default=None,
            )
            if held is not None:
                return Obj((self.key, held[0], 0), name.attrs[len(held[1].attrs):]).display
        return obj.display

    def _held_by_caller(self, root: Root) -> bool:
        """Whether a caller holds the object of `root` once the call returned: a parameter's, a
        global's, the caller's own (a root of no scope of this walk, `<call ...>` results aside)."""
        return not self.is_local(root) or ":" not in root[0]

    def _handed_objects(self, func: nodes.FunctionDef, bound: Dict[str, Value], origins: Dict[str, Origin]) -> Handed:
        """The objects a call of `func` hands it that hold shards (those the call has an origin
        for), by the roots its walk binds them to: what the callee finds of `self.model` is of
        this walk's `wrapper.model` (`CallListener.on_callee`). The others are no rule's subject."""
        return tuple((_param_root(func, name), self.canonical(obj)) for name in sorted(origins) if name in bound for obj in objects_in(bound[name]))

    def sharded_here(self, obj: Obj, before: Union[int, Point, None] = None, must: bool = False) -> Optional[ShardEvent]:
        """The shard event covering `obj` (it or an ancestor) that one run can make before this
        point (or before `before`, a point or a sequence number on the current path); with
        `must`, one whose target holds `obj` whichever modules their members are (`contains`)
        and that sharded it (`events_before`)."""
        point = before if isinstance(before, Point) else Point(self._seq + 1 if before is None else before, self.path)
        # where the runs to the point found `obj` no `FSDPModule` (`hasattr(model_container[0],
        # "set_requires_gradient_sync")` false), a shard that would cover it only by being it
        # (an item or a member a wildcard stands for) sharded another module on them
        plain = self.flag_value(point.path, obj.child(paths.FSDP_MODULE)) is False
        for event in self.events_before(point, must):
            if not self.contains(event.target, obj, at=event.seq, must=must):
                continue
            if plain and not self.contains(event.target, obj, strict=True, at=event.seq, must=must):
                continue  # it would be `obj` itself
            return event
        return None

    def may_be_sharded(self, obj: Obj, before: Union[int, Point, None] = None) -> bool:
        """Whether `obj` may lie in a sharded tree at this point: sharded on a path through here,
        in this function, by a function it called, or before it was called (its context)."""
        return self.sharded_here(obj, before) is not None

    def has_sharded_descendant_here(self, obj: Obj, must: bool = False, before: Optional[Point] = None) -> bool:
        """Whether a module strictly inside `obj` may be sharded on a run to here (or to `before`;
        with `must`: lies inside `obj` whichever modules their members are)."""
        return any(self.contains(obj, e.target, strict=True, must=must) for e in self.events_before(before or self.point(), must))

    def contains(self, outer: Obj, inner: Obj, strict: bool = False, at: Optional[int] = None, must: bool = False) -> bool:
        """Whether `inner` may be `outer` or lie inside it (strictly: below it), also through what
        is stored in attributes (`model.layers` holding the list that `block` came from); with
        `at`, only through what was stored before that point (a module assigned into a sharded
        parent afterwards is not part of the parent's unit). With `must`, whichever modules the
        members on the two paths are (`path_must_cover`): what an ordering rule reports on, where
        "may" is what keeps the others silent."""
        outer = self.canonical(outer)
        covers = path_must_cover if must else path_covers
        return any(
            covers(outer, name) and (not strict or len(name.attrs) > len(outer.attrs))
            for name in self.names_of(inner, at)
        )

    def _holders_of(self, root: Root) -> List[Tuple[Tuple[Root, AttrPath], Obj]]:
        """The attributes that hold an object of `root`, or a dict or list that holds it (as an
        item of the attribute: `self.models["backbone"]` is `self.models[*]`, as a read of it
        finds it, `containers.subscript`): an index of `attr_env` by the roots of its values,
        rebuilt only when `attr_env` changed. Not an attribute as it was, where an arm did not
        write it (`_join`): that it holds itself names nothing."""
        version, index = self._holders
        if version != self._attr_version:
            index = {}
            for key, value in self.attr_env.items():
                for option in options_of(value):
                    if isinstance(option, Obj) and (option.root, option.attrs) != key:
                        index.setdefault(option.root, []).append((key, option))
                    elif isinstance(option, Container):
                        for obj in objects_in(option):
                            index.setdefault(obj.root, []).append(((key[0], key[1] + (WILDCARD,)), obj))
            self._holders = (self._attr_version, index)
        return index.get(root, [])

    def names_of(self, obj: Obj, at: Optional[int] = None) -> Tuple[Obj, ...]:
        """`obj` and the paths it is reachable by through stored attributes: an object stored as
        `model.layers` is also `model.layers` (a few steps up, the first few paths). Asked for the
        same objects at every call and test until `attr_env` changes, so remembered until then."""
        if at is None:
            version, known = self._names
            if version != self._attr_version:
                known = {}
                self._names = (self._attr_version, known)
            found = known.get(obj)
            if found is None:
                found = known[obj] = self._names_of(obj, None)
            return found
        return self._names_of(obj, at)

    def _names_of(self, obj: Obj, at: Optional[int]) -> Tuple[Obj, ...]:
        found = [obj] if at is not None else [self.canonical(obj)]
        index = 0
        while index < len(found) and len(found) < 16:
            current = found[index]
            for key, option in self._holders_of(current.root):
                if at is not None and self._stored_at.get(key, 0) > at:
                    continue
                owner, attrs = key
                if option.attrs == current.attrs[: len(option.attrs)]:
                    name = Obj(owner, attrs + current.attrs[len(option.attrs):])
                    if name not in found:
                        found.append(name)
            index += 1
        return tuple(found)

    def may_hold_shards(self, obj: Obj, must: bool = False, runs: Path = EMPTY) -> bool:
        """Whether `obj` or any module inside it may be sharded here (its state dict holds DTensors;
        `Module._apply`, behind `.to()` and `.float()`, reaches their parameters). With `must`:
        `obj` lies in, or holds, a sharded module whichever modules their members are. With
        `runs`: on the runs that also take those branch outcomes (those that give `obj`), of which
        none reaches here where they contradict the way here."""
        if runs and not paths.compatible(self.path, runs) or self._holds_no_module(obj):
            return False
        here = self.point(runs)
        return self.sharded_here(obj, here, must=must) is not None or self.has_sharded_descendant_here(obj, must=must, before=here)

    def _holds_no_module(self, obj: Obj) -> bool:
        """Whether `obj` is an object of a class that holds no module (an LR scheduler stored on
        a sharded model: `known_apis.holds_no_module`), so no shard either."""
        found = self.canonical(obj)
        return known_apis.holds_no_module(self.class_name(found) or found.cls)

    def provably_unsharded(self, obj: Obj) -> bool:
        """Whether `obj` holds no DTensor yet: nothing in it is sharded on any path to here, and
        what it is is known (a local object, or one the calling context describes)."""
        if self.may_hold_shards(obj):
            return False
        root = self.canonical(obj).root
        if self.is_local(root) or root in self.known_params:
            return True
        # a parameter this function shards itself later was not sharded when it came in
        return any(event.target.root == root for event in self.project.events_of_scope(self.key))

    def is_tensor(self, obj: Obj) -> bool:
        """Whether `obj` is a tensor, not a module: a parameter (an `nn.Parameter` built on the way
        here, one that a class of the tree sets on `self`, the `weight` or `bias` of a torch.nn leaf
        module), a buffer its class registers (`ClassFacts.buffers`), or what is reached through
        one (`.data`, `._local_tensor`). Its `.to(dtype)` or `.float()` returns a copy and leaves
        the module's parameters as they are."""
        found = self.canonical(obj)
        for length in range(len(found.attrs) + 1):
            cls = self.class_name(Obj(found.root, found.attrs[:length])) or (found.cls if length == len(found.attrs) else None)
            if cls in known_apis.PARAMETER_CLASSES:
                return True
            if length < len(found.attrs):
                attr = found.attrs[length]
                facts = self.project.class_facts(cls)
                if known_apis.leaf_parameter(cls, attr) or attr in facts.parameters or attr in facts.buffers:
                    return True
        return False

    def is_module(self, obj: Obj) -> bool:
        """Whether something says `obj` is a module: its class is not a class of the tree with no
        module among its bases (`class_values.is_setting_class`: a plain holder of modules is
        none, whatever it holds), and it is, or holds, a module sharded on a run to here
        (`fully_shard` takes modules; a module around it, or a path the caller matched only
        through a name given at run time, says nothing of what it is), the walk knows its class and it is no parameter's, or
        it is an attribute its owner's class files as a submodule (`ClassFacts.submodules`: `head`
        of a class that calls `self.head(x)`). An attribute read from a module with nothing known
        of it (`quantizer._amax`, `getattr(module, name)`) may as well be a buffer or a parameter: a tensor."""
        found = self.canonical(obj)
        cls = self.class_name(found) or found.cls
        if cls is not None and class_values.is_setting_class(self.project, cls):
            return False
        point = self.point()
        if any(
            self.contains(found, e.target, must=True) and self.happens_before(Point(e.seq, e.path), point)
            and not e.above and not e.guessed
            for e in self.events
        ):
            return True
        if cls is not None:
            return cls not in known_apis.PARAMETER_CLASSES and not known_apis.holds_no_module(cls)
        if not found.attrs:
            return False
        return found.attrs[-1] in self.project.class_facts(self.class_name(Obj(found.root, found.attrs[:-1]))).submodules

    def casts_in_place(self, call: nodes.Call, obj: Obj) -> bool:
        """Whether a dtype cast (`.to(dtype)`, `.float()`, ...) called on `obj` casts a module's
        parameters in place, not a tensor into a copy. `nn.Module`'s casts convert its parameters
        and return the module itself, a tensor's return a new tensor and leave it as it was
        (torch 2.13): a cast made for its effect alone (a statement) is a module's, one whose
        result is used as a value (`amax.float() / 448.0`, an argument, a new name) is a
        module's only where something says the object is a module (`model = model.float()`)."""
        if self.is_tensor(obj):
            return False
        return isinstance(call.parent, nodes.Expr) or self.is_module(obj)

    def class_name(self, obj: Obj) -> Optional[str]:
        """The qualified name of the class of the object at `obj`'s path, where the walk knows it
        (built here, described by the calling context, or stored at that attribute)."""
        if not obj.attrs:
            return self.classes.get(obj.root)
        stored = options_of(self.attr_env.get((obj.root, obj.attrs), UNKNOWN))
        return stored[0].cls if len(stored) == 1 and isinstance(stored[0], Obj) else None

    def plan_final(self, obj: Obj) -> Optional[Point]:
        """The first point where `obj`'s sharding plan is final: an optimizer is built over its
        parameters, or it runs a forward (a later `fully_shard` would lose the optimizer's
        parameters or need the lazy init again), so no caller can complete the plan."""
        points = [Point(b.seq, b.path) for b in self.optimizers if any(self.contains(o, obj) or self.contains(obj, o) for o in b.optimizer.over)]
        points += [point for point, called in self.forwards if self.contains(called, obj) or self.contains(obj, called)]
        return min(points, default=None)

    def ran_forward(self, obj: Obj, point: Optional[Point] = None) -> Optional[Point]:
        """The first forward before `point` (default: here), on a path to it, of `obj`, a module
        around it or one inside it, made after one of them was sharded: from there on FSDP's lazy
        initialisation is over, and it no longer adopts the parameters as they are (a dtype
        cast then breaks the next all-gather, torch 2.13)."""
        point = point or self.point()
        for at, called in self.forwards:
            if self.happens_before(at, point) and (self.contains(called, obj) or self.contains(obj, called)) and (
                self._forward_after_shard(called, at) or self.sharded_here(obj, before=at) is not None
            ):
                return at
        return None

    def _forward_after_shard(self, called: Obj, at: Point) -> bool:
        """Whether the forward of `called` at `at` ran after `called`, a module around it or one
        inside it was sharded (one a caller made is known to have: `ObjectFacts.forwarded`)."""
        return at.seq < 0 or any(
            self.happens_before(Point(e.seq, e.path), at) and (self.contains(e.target, called) or self.contains(called, e.target))
            for e in self.events
        )

    def handed_to(self, optimizer: Optimizer, names: FrozenSet[str]) -> bool:
        """Whether this walk (or a function it called) passes the optimizer built at
        `optimizer.node` to a call of one of these names (a framework call that rebuilds it)."""
        return any(name in names and passed.node is optimizer.node for _, name, passed in self.handoffs)

    def rebuilt_after(self, optimizer: Optimizer, built: Point, event: ShardEvent) -> bool:
        """Whether every run that builds the optimizer at `built` and then makes `event` (a shard,
        or parameters replaced) rebuilds its param groups after it, over the module it made new
        parameters for: the optimizer then holds the new parameters (`Rebuild`). A rebuild on some
        of those runs only (`if fix_optimizer: ...`) leaves the others with stale tensors."""
        at = (event.seq,) + event.inner
        runs = event.path | built.path
        return any(
            rebuild.position > at and all(literal in runs or literal[0][0] == "dead" for literal in rebuild.path)
            and any(self._same_optimizer(o, optimizer) for o in contained(rebuild.target, Optimizer))
            and (not rebuild.over or any(self.contains(o, event.target) for o in rebuild.over))
            for rebuild in self.rebuilds
        )

    def _same_optimizer(self, first: Optimizer, second: Optimizer) -> bool:
        """One optimizer, as two places know it: built at the same node, or (one built by a helper,
        known by the helper's call) of one class over the same modules."""
        return first.node is second.node or first.cls_name == second.cls_name and any(
            self.contains(a, b) or self.contains(b, a) for a in first.over for b in second.over
        )

    def explicitly_unsharded(self, obj: Obj) -> bool:
        return any(path_covers(u, obj) or path_covers(obj, u) for u in self.unsharded)

    def canonical(self, obj: Obj) -> Obj:
        """`obj` by the object it denotes: `self.model` is the model stored there, if known."""
        if not obj.attrs and (obj.root, ()) not in self.attr_env:  # only a global a function rebound has no attribute there
            return obj
        for _ in range(8):
            for length in range(len(obj.attrs), -1, -1):
                stored = self.attr_env.get((obj.root, obj.attrs[:length]))
                if isinstance(stored, Obj) and stored.root != obj.root:
                    obj = Obj(stored.root, stored.attrs + obj.attrs[length:], obj.cls)
                    break
            else:
                return obj
        return obj

    def _canonical_options(self, value: Value) -> Value:
        """An `Either` with each object by the object it denotes (as `canonical`): stored back where
        it was read (`self.model.gen = warp(self.model.gen)`, `self.model` one of several), it
        is the objects, not the paths it was read by (which would then name themselves)."""
        if not isinstance(value, Either) or not any(isinstance(option, Obj) for option in value.options):
            return value
        return either([self.canonical(option) if isinstance(option, Obj) else option for option in value.options])

    def full_state_dict(self, call: nodes.Call) -> Optional[bool]:
        """Whether a state-dict call returns a full state dict (its `options=`, as far as this
        walk knows their value); None when not visible."""
        options = next((k.value for k in call.keywords or [] if k.arg == "options"), None)
        value = self.value(options) if options is not None else None
        return known_apis.full_state_dict_of(value, options is not None, any(k.arg is None for k in call.keywords or []))

    def qualified_name(self, expr: nodes.NodeNG) -> Optional[str]:
        return self.project.qualified_name(expr)

    def is_fully_shard_call(self, node: nodes.Call) -> bool:
        return self.shards(self.qualified_name(node.func)) or isinstance(self.value(node.func), ShardFunction)

    def sharded_module(self, node: nodes.Call) -> Optional[nodes.NodeNG]:
        """The expression naming the module `node` shards, where it is a sharding call that names
        one (`fully_shard(block)`, `fully_shard(module=block)`)."""
        return known_apis.sharded_module_node(node) if self.is_fully_shard_call(node) else None

    def shards(self, qname: Optional[str]) -> bool:
        """Whether `qname` is `fully_shard` or a sharding function the project declared."""
        return qname in FULLY_SHARD or self.project.apis.shards(qname)

    # ---- binding ---------------------------------------------------------------------------------

    def _bind_parameters(self, func: nodes.FunctionDef) -> None:
        args = func.args
        in_class = isinstance(func.parent, nodes.ClassDef)
        is_method = in_class and not syntax.is_staticmethod(func)
        for index, arg in enumerate(syntax.named_parameters(func)):
            if index == 0 and is_method and syntax.is_classmethod(func):
                self.env[arg.name] = ClassRef(self.project.class_qname(func.parent))
                continue
            if index == 0 and is_method:
                self.self_root = (scope_key(func.parent), "self", 0)
                self.self_class = func.parent
                root = self.self_root
            else:
                root = (self.key, arg.name, 0)
                self.param_roots[arg.name] = root
            facts = self.context.of(arg.name)
            self.env[arg.name] = self._adopt(arg.name, root, facts)
            if arg.name in self.context.not_none:
                self._not_none.add(root)
        for name in free_variables(func, self.project.binding):
            facts = self.context.of(name)  # a closure's variables, as the call passes them
            if facts is not None:
                self.param_roots[name] = (self.key, name, 0)
                self.env[name] = self._adopt(name, self.param_roots[name], facts)
        for extra in (args.vararg, args.kwarg):
            if extra:
                self.env[extra] = UNKNOWN
        for name, holder, attrs in self.context.within:  # `blocks` is `root.layers`: stored there, as the caller gave it
            key = (_param_root(func, holder), attrs)
            self.attr_env[key] = self._adopted[key] = self.env[name]
            self._attr_version += 1
        if self.context.outcomes:  # the caller's outcomes the call sits under: every run here took them
            told = self._through_getters([(Obj(root, attrs), test, value) for root, attrs, test, value in paths.flags(_condition_path(func, self.context.outcomes))])
            self.path = frozenset(paths.flag(s.root, s.attrs, v, t) for s, t, v in told)
            self._told = frozenset(holder for holder, attrs, _, _ in self.context.outcomes if isinstance(holder, str) and not attrs)

    def _adopt(self, name: str, root: Root, facts: Union[ObjectFacts, Value, None]) -> Value:
        """The value of a parameter in this context: an object with the caller's facts about it,
        or the caller's own value (an optimizer, a state dict, a list of models)."""
        if facts is None:
            return Obj(root)
        if not isinstance(facts, ObjectFacts):
            self.known_params.add(root)
            return facts
        self.known_params.add(root)
        origin = self.origins.get(name)
        conditions = dict(facts.conditions)
        for attrs in sorted(facts.sharded):
            node = origin.shard if origin is not None else self.scope
            above = attrs == ABOVE
            path = _condition_path(self.scope, conditions.get(attrs, frozenset()))
            self.events.append(ShardEvent(
                Obj(root, () if above else attrs), node, -1, origin=origin or Origin(self.scope, "a caller"), above=above, path=path,
                guessed=attrs in facts.guessed,
            ))
            if attrs in facts.certain:
                self._certain.add((root, attrs))
        for attrs, reached in facts.meta:
            self._inherit_meta((root, attrs), reached)
        if facts.cls:
            self.classes[root] = facts.cls
        if facts.plain:
            self._plain.add(root)
            self._not_none.add(root)
        for attrs in sorted(facts.forwarded):
            self.forwards.append((Point(-1, EMPTY), Obj(root, attrs)))
        self._reregistered_on_return.extend(Obj(root, attrs) for attrs in sorted(facts.reregistered))
        for attrs, module in facts.deferred:
            self._deferred_at[(root, attrs)] = module
        self.compiled.update((root, attrs) for attrs in facts.compiled)
        for attrs, value in facts.attrs:
            self.attr_env[(root, attrs)] = value
            self._adopted[(root, attrs)] = value
            self._attr_version += 1
        return Obj(root, cls=facts.cls)

    def _inherit_globals(self) -> None:
        for root, name, attrs in self.context.held_globals:
            if name in self.param_roots:
                self._adopt_global(root, Obj(self.param_roots[name], attrs))
        conditions = dict(self.context.conditions)
        for root, attrs in sorted(self.context.globals):
            path = _condition_path(self.scope, conditions[(root, attrs)]) if (root, attrs) in conditions else EMPTY
            self._inherit_global(root, attrs, path)
        self._certain.update(self.context.certain)
        for key, reached in self.context.meta:
            self._inherit_meta(key, reached)
        self._reregistered_on_return.extend(Obj(root, attrs) for root, attrs in sorted(self.context.reregistered))
        self._plain.update(self.context.plain)

    def _inherit_meta(self, key: MetaKey, reached: Materialised) -> None:
        """An object on the meta device as far as the caller got it: every run as far as
        `least`, and `most` on the runs that do not take the short run's outcomes."""
        self.meta_objects.add(key)
        if reached.least > MetaState.META:
            self.meta_steps.append((Point(-1, EMPTY), key, reached.least))
        for outcome in reached.short if reached.most > reached.least else ():
            self.meta_steps.append((Point(-1, frozenset([(outcome[0], not outcome[1])])), key, reached.most))

    def _inherit_global(self, root: Root, attrs: AttrPath, path: Path = EMPTY) -> None:
        """A global path sharded before this walk began (`ABOVE`: the global lies in a sharded module)."""
        above = attrs == ABOVE
        target = Obj(root, () if above else attrs)
        self.events.append(ShardEvent(target, self.scope, -1, origin=Origin(self.scope, "module level"), path=path, above=above))

    def _bound_globals(self) -> Dict[Root, List[Tuple[Root, AttrPath]]]:
        """In a module's top level, the globals bound so far to objects known by other roots
        (`module_globals.paths_to`); elsewhere the walk binds no global."""
        return bound_globals(self.env, self.key) if self.scope is self.scope.root() else {}

    def module_globals(self) -> ModuleGlobals:
        """What a finished walk of a module's top level left in its globals, for the code that
        runs after it (its functions called from outside, its importers)."""
        sharded: Set[GlobalPath] = set()
        if self.events:
            bound = self._bound_globals()
            for event in self.events:
                names = [event.target] if event.above else self.names_of(event.target)
                for root, attrs in paths_to(names, bound):
                    if root[0] == self.key:
                        sharded.add((root, ABOVE if event.above and attrs == () else attrs))
        return ModuleGlobals(frozenset(sharded), frozenset(self.deferred))

    def _tick(self) -> int:
        self._seq += 1
        return self._seq

    def _new_root(self, name: str) -> Root:
        if self.scope is self.scope.root():
            return (self.key, name, 0)
        generation = self._generations.get(name, 0) + 1
        self._generations[name] = generation
        return (self.key, name, generation)

    def _materialise(self, value: Value, name: Union[str, nodes.NodeNG]) -> Value:
        """A fresh object bound to `name` (a variable, or the expression passed as an argument:
        named by its source text, found only when needed, which is rarely)."""
        if isinstance(value, Fresh):
            obj = Obj(self._new_root(name if isinstance(name, str) else name.as_string()), cls=value.cls)
            if value.cls:
                self.classes[obj.root] = value.cls
            if value.true:
                self._plain.add(obj.root)
            if self._meta_depth and not class_values.is_setting_class(self.project, value.cls):
                self._built_on_meta((obj.root, ()))  # a configuration built there holds no tensor
            return obj
        if isinstance(value, Either) and any(isinstance(option, Fresh) for option in value.options):
            # `Model() if c else load()`: each new object the value may be is one
            return mapped_options(value, lambda option: self._materialise(option, name))
        return value

    def _bump(self, name: Optional[str]) -> None:
        if name:
            self._versions[name] = self._versions.get(name, 0) + 1

    def _bound_value(self, target: nodes.NodeNG) -> Value:
        """What a name or an attribute of an object is bound to before `target` rebinds it."""
        if isinstance(target, nodes.AssignName):
            return self.env.get(target.name, UNKNOWN)
        owner = self._eval(target.expr) if isinstance(target, nodes.AssignAttr) else None
        if isinstance(owner, Obj):
            return self.attr_env.get((owner.root, owner.attrs + (target.attrname,)), UNKNOWN)
        return UNKNOWN

    def _bind(self, target: nodes.NodeNG, value: Value) -> None:
        if isinstance(target, nodes.AssignName):
            value = self._materialise(value, target.name)
            self.env[target.name] = value
            self._bump(target.name)
            if self.scope is self.scope.root() and isinstance(value, Obj) and value.root != (self.key, target.name, 0):
                self.project.add_alias((self.key, target.name, 0), value)
            elif module_globals.declared_global(target):
                self._rebind_global(target, value)
        elif isinstance(target, (nodes.Tuple, nodes.List)):
            items = containers.unpacked(value, len(target.elts), self.project.origin)
            for index, element in enumerate(target.elts):
                if isinstance(element, nodes.Starred):
                    self._bind(element.value, UNKNOWN)
                else:
                    self._bind(element, items[index])
        elif isinstance(target, nodes.AssignAttr):
            owner = self._eval(target.expr)
            assigned = target.parent.value if isinstance(target.parent, (nodes.Assign, nodes.AnnAssign)) else None
            for option, guard in guarded_options(owner):  # a write on each object the owner may be, on the runs that give it
                self.attr_assignments.append(AttrAssignment(target, option, target.attrname, value, assigned, self._seq + 1, self.path | guard))
            self._set_attribute(owner, target.attrname, value, target, assigned, paths.attribute_chain(target))
        elif isinstance(target, nodes.Subscript):
            self._store(value)
            key = self._eval(target.slice)
            container = self._eval(target.value)
            if isinstance(target.slice, nodes.Slice) or isinstance(target.slice, nodes.Const) and target.slice.value == "params":
                # `group["params"] = new`, `optimizer.param_groups[:] = groups`
                for groups in contained(container, ParamGroups):
                    self._rebuilt(groups.optimizer)
            entries = self._entries_of(target.value) if not isinstance(target.slice, nodes.Slice) else None
            if entries is not None and isinstance(key, Constant) and isinstance(key.value, str):
                self._set_attribute(entries, key.value, value, target, None, None)  # `conf["data"] = ...`: the entry (`_entry`)
            elif entries is not None:
                self._entries_changed(entries, target)
            elif isinstance(key, Constant) and isinstance(key.value, str):
                for owner in options_of(container):  # the entry a test reads as a flag
                    if isinstance(owner, Obj):
                        self._rebind_flag(owner, key.value, _written(value), self._seq + 1)
            grown: Optional[Value] = None
            if isinstance(container, Container):
                grown = containers.stored_item(container, key, value)
            elif isinstance(container, StateDict):
                grown = containers.stored_in_state_dict(container, key)
            if grown is not None and isinstance(target.value, (nodes.Name, nodes.Subscript)):
                self._rebind_container(target.value, grown)  # `config["denoiser"]["fsdp"] = None`: `config` too
            elif grown is not None and isinstance(target.value, nodes.Attribute):
                # `self.ema[name] = ...`: the dict the attribute holds gains the item
                owner = self._eval(target.value.expr)
                if isinstance(owner, Obj):
                    key = (owner.root, owner.attrs + (target.value.attrname,))
                    self.attr_env[key] = grown
                    self._attr_version += 1
                    self._stored_at[key] = self._seq + 1
            elif grown is None and any(isinstance(option, (Obj, Optimizer)) for option in options_of(value)):
                # a module or optimizer stored into an object whose contents this walk does not
                # hold (`self.models[name] = model`, the dict made in another method): one of its
                # items, as a read of `self.models[...]` finds it (`containers.subscript`)
                self._set_attribute(container, WILDCARD, value, target, None, None)
        elif isinstance(target, nodes.Starred):
            self._bind(target.value, UNKNOWN)

    def _rebind_global(self, target: nodes.AssignName, value: Value) -> None:
        """`global NAME; NAME = value` in a function: from there on the global denotes `value`,
        here and in the callers once the call returned (`Summary.attr_writes`, the global by its
        root with no attribute), so a flag read through it (`get_args().fsdp_version` after
        `set_args(args)`) is the flag of the object stored (`canonical`)."""
        key = (global_root(scope_key(target.root()), target.name), ())
        self.attr_env[key] = self._canonical_options(value)
        self._attr_version += 1
        self._stored_at[key] = self._seq + 1
        self._rebound_globals.add(key[0])

    def _adopt_global(self, root: Root, value: Obj) -> None:
        """A global the caller knows a function rebound to `value`, one of this walk's parameters
        or inside one (`Context.held_globals`): as the caller gave it, not a write of this walk."""
        self.attr_env[(root, ())] = self._adopted[(root, ())] = value
        self._attr_version += 1
        self._rebound_globals.add(root)

    def _held_globals(self, bound: Dict[str, Value]) -> Tuple[Tuple[Root, str, AttrPath], ...]:
        """`Context.held_globals` for a call given `bound`: each global rebound here to an
        object, by the first parameter whose argument is it or holds it."""
        found = []
        for root in sorted(self._rebound_globals):
            stored = self.attr_env.get((root, ()))
            if not isinstance(stored, Obj):
                continue
            for name in sorted(bound):
                value = bound[name]
                given = self.canonical(value) if isinstance(value, Obj) else None
                if given is not None and given.root == stored.root and stored.attrs[: len(given.attrs)] == given.attrs:
                    found.append((root, name, stored.attrs[len(given.attrs):]))
                    break
        return tuple(found)

    def _set_attribute(
        self, owner: Value, attr: str, value: Value, node: nodes.NodeNG, assigned: Optional[nodes.NodeNG], chain: Optional[str],
    ) -> None:
        """`owner.attr = value` at `node` (also `setattr(owner, "attr", value)`); `assigned` is
        the expression assigned, `chain` the text of the attribute (`self.model`) where it is one.
        An owner that may be one of several objects (`model = model.decoder if fused else model`,
        or a helper's parameter bound so) gives each of them `value` there: a read through the
        same name then finds it on every run, as the code that wrote it meant."""
        self._store(value)
        self._bump(chain)
        if attr == "param_groups":
            self._rebuilt(owner)  # `optimizer.param_groups = [...]`
        owners = [option for option in options_of(owner) if isinstance(option, Obj)]
        if owners:
            value = self._materialise(value, f"{owners[0].display}.{attr}")
        value = self._canonical_options(value)
        for target in owners:
            if assigned is not None and known_apis.is_parameter_call(assigned, self.qualified_name):
                self._replaced(target, node)
            self.attr_env[(target.root, target.attrs + (attr,))] = value
            self._attr_version += 1
            self._stored_at[(target.root, target.attrs + (attr,))] = self._seq + 1
            self._rebind_flag(target, attr, _written(value), self._seq + 1)
            if target.root == self.self_root or not self.is_local(target.root):
                self.project.add_attr_value(target.root, target.attrs + (attr,), value)

    def _rebind_flag(self, owner: Obj, attr: str, written: Written, seq: int) -> Tuple[Root, AttrPath]:
        """`owner.attr = value` at `seq` (here, or in a callee), `written` the constants it may
        be: a constant (or any value, where a test of the attribute is on the path) gives its
        flag a new version. A test fixes the value the attribute held when it ran, so the
        outcomes of this walk's tests of it so far that the value may change (`if not
        self._model_wrapped:` before `self._model_wrapped = True`) say nothing of what a later
        test reads: they leave the path, and the facts recorded before keep them only up to a
        calling context or a summary (`_current_flags`). An outcome every constant written
        passes still holds: after `self._model_wrapped = True` on some runs, a run that found
        it true finds it true still, whether or not it took the write. The flag's key: the
        attribute of the canonical owner."""
        found = self.canonical(owner)
        key = (found.root, found.attrs + (attr,))
        tested = [literal for literal in paths.flag_literals(self.path) if (literal[0][1], literal[0][2]) == key]
        if tested:
            self.path = self.path - {literal for literal in tested if _may_change(literal, written)}
        elif written is None:
            return key
        self._rebinds.setdefault(key, []).append((seq, written))
        self._last_rebound = max(self._last_rebound, seq)
        return key

    def _changed_since(self, literal: paths.Literal, seq: int) -> bool:
        """Whether a rebind after `seq` (`_rebind_flag`) may have changed the flag outcome `literal`."""
        atom = literal[0]
        return any(at > seq and _may_change(literal, written) for at, written in self._rebinds.get((atom[1], atom[2]), ()))  # type: ignore[arg-type]

    def _current_flags(self, path: Path, seq: int, reader: Optional[nodes.NodeNG]) -> Path:
        """The flag literals of `path`, the way to a fact recorded at `seq`, as they read here: a
        flag that got a new version since (`_rebind_flag`) gives way to what the attribute holds
        now on the runs through `path` where every value they may give agrees (after `if not
        self._model_wrapped: shard(); self._model_wrapped = True`, the runs that sharded have it
        true), and is dropped where they do not; so does one that the fact's own call rebound
        or that no test on the way read (`if resume: model.wrap()`, which sets it). A summary
        tells what each attribute it rebound holds on a fact's runs, whether or not a test on the
        way read it (the value the calling context gave decided the test): the caller's later
        calls may test it, and a rebind there that writes what it holds on those runs leaves
        the outcome standing (`_rebind_flag`). Only of the attributes that `reader` may test
        (`Project.attributes_tested`): the callee of a calling context, or for a summary, the
        function itself (a flag it reads is one its work is done under); another would only
        make contexts differ that are one."""
        flags = paths.flag_literals(path)
        if self._last_rebound < seq:
            return flags
        later = [key for key, rebinds in self._rebinds.items() if rebinds[-1][0] >= seq]
        if not later:
            return flags
        changed = frozenset(literal for literal in flags if self._changed_since(literal, seq))
        stale = {(atom[1], atom[2]) for atom, _ in changed}  # type: ignore[misc]
        tested = self.project.attributes_tested(reader) if isinstance(reader, nodes.FunctionDef) else frozenset()
        told = [key for key in later if key[1][-1] in tested and (reader is self.scope or key in stale or not travels(self.attr_env.get(key, UNKNOWN)))]
        if not stale and not told:
            return flags
        runs = path - changed
        return paths.flag_literals(runs) | {held for key in sorted(told, key=repr) for held in self._held_on(key, runs)}

    def _held_on(self, key: Tuple[Root, AttrPath], runs: Path) -> Path:
        """The flag literal of what the attribute `key` holds on the runs through `runs`, where
        the constants they may give agree: one constant (its equality, which decides its truth
        too), or several of one truth; none otherwise."""
        held = [option for option, guard in guarded_options(self.attr_env.get(key, UNKNOWN)) if paths.compatible(runs, guard)]
        if not held or not all(isinstance(option, Constant) for option in held):
            return EMPTY
        values = [option.value for option in held]  # type: ignore[union-attr]
        if all(value == values[0] and type(value) is type(values[0]) for value in values):
            return frozenset([paths.flag(key[0], key[1], True, (values[0],))])
        truths_held = {bool(value) for value in values}
        return frozenset([paths.flag(key[0], key[1], truths_held.pop())]) if len(truths_held) == 1 else EMPTY

    def _made_fsdp_modules(self, targets: List[Obj]) -> None:
        """After `fully_shard` of `targets` (here or in a callee), a test on the way here that
        found one of them no `FSDPModule` no longer says what it is."""
        if self.path and paths.flag_literals(self.path):
            for target in targets:
                self.path = _made_on(self.path, target) - _made_fsdp_module(target)

    def _store(self, value: Value) -> None:
        for obj in objects_in(value):
            self.stored.add(obj.root)

    def _rebuilt(self, optimizer: Value, over: Tuple[Obj, ...] = ()) -> None:
        """The param groups of `optimizer` (an optimizer, or what holds one) are rebuilt here."""
        for option in options_of(optimizer):
            if isinstance(option, (Obj, Optimizer)):
                self.rebuilds.append(Rebuild(option, self._tick(), self.path, over=over))

    def _rebuilt_by_call(self, rebuilds: List[Rebuild], mapper: RootMapper, node: nodes.NodeNG, seq: int, bound: Dict[str, Value]) -> None:
        """A callee's rebuilds, in this walk's terms, at the call (`inner`: where in it). An
        optimizer the callee reached through an object whose content neither walk knows
        (`state.optimizers[0]`) is, as far as this walk can tell, one the call was handed: each
        optimizer among its arguments."""
        if not rebuilds:
            return
        handed = [o for value in bound.values() for o in contained(value, Optimizer)]
        for rebuild in rebuilds:
            target = self._held(mapper.value(rebuild.target, node))
            if handed and not contained(target, Optimizer):
                target = either(handed)
            over = tuple(self.canonical(o) for obj in rebuild.over for o in mapper.objs(obj))
            self.rebuilds.append(Rebuild(target, seq, self.path | _mapped_flags(rebuild.path, mapper, self.canonical), rebuild.position, over))

    def _held(self, value: Value) -> Value:
        """An object known by the attribute that holds it, as the optimizer this walk stored there."""
        options = []
        for option in options_of(value):
            stored = self.attr_env.get((option.root, option.attrs)) if isinstance(option, Obj) and option.attrs else None
            options.append(stored if stored is not None and contained(stored, Optimizer) else option)
        return either(options)

    def _builds_fsdp_param(self, qname: Optional[str], func_value: Value) -> bool:
        """Whether a call builds FSDP's record of a parameter (`known_apis.FSDP_PARAM_CLASSES`),
        by its name or by the classes the called value may be (`param_class = QFSDPParam if
        quantized else FSDPParam`)."""
        named = [qname] + [o.qname for o in options_of(func_value) if isinstance(o, ClassRef)]
        return any(class_values.is_or_extends(self.project, name, known_apis.FSDP_PARAM_CLASSES) for name in named if name)

    def _reregistered(self, param: Value, node: nodes.NodeNG) -> None:
        """The parameter an `FSDPParam` is built from (one of `module.named_parameters()`, or
        `module.weight`) is handed to FSDP as it is now: the module's new parameters are managed."""
        seq = self._tick()
        for option in options_of(param):
            owner = option.owner if isinstance(option, Params) else option
            if isinstance(owner, Obj):
                self.reregistrations.append(ShardEvent(self.canonical(owner), node, seq, path=self.path))

    def _replaced(self, owner: Obj, node: nodes.NodeNG) -> None:
        """`owner`'s parameters are replaced by new tensors: an optimizer built before holds the old ones."""
        self.replacements.append(ShardEvent(self.canonical(owner), node, self._tick(), path=self.path))

    # ---- statements ------------------------------------------------------------------------------

    def _snapshot(self) -> _State:
        return _State(dict(self.env), dict(self.attr_env), self.path)

    def _restore(self, state: _State) -> None:
        self.env, self.attr_env, self.path = dict(state.env), dict(state.attr_env), state.path
        self._attr_version += 1

    def _join(self, states: List[Optional[_State]]) -> None:
        """The state where arms meet; an arm that never falls through (None) adds nothing. An
        attribute one arm wrote and another did not (`if not args.distributed: args.fsdp = False`)
        is the written value on the runs of the first and, on the others, what it held before:
        the attribute itself (`Obj`), as a read of it there finds it; a variable bound on one
        arm only is that arm's value (on the others a read of it fails)."""
        live = [s for s in states if s is not None]
        if not live:
            return  # no arm falls through: what follows is unreachable from here; keep walking
        if len(live) == 1:
            self._restore(live[0])
            return
        path = live[0].path
        for state in live[1:]:
            path = paths.join(path, state.path)
        runs = [state.path - path for state in live]  # each arm's own outcomes: a value it bound holds on them
        self.env = _join_maps([s.env for s in live], runs)
        self.attr_env = _join_maps([s.attr_env for s in live], runs, lambda key: Obj(*key))
        self._attr_version += 1
        self.path = paths.excluding(path, [state.path for state in live], self._left)

    def _arm(self, body: List[nodes.NodeNG], start: _State, outcome: Path = EMPTY) -> Optional[_State]:
        """Walk one arm from `start`; its end state, or None when it cannot fall through."""
        self._restore(start)
        self.path = self.path | outcome
        if not self._block(body):
            return None  # an `if` this walk decides left it (`_statement`)
        if not syntax.leaves(body):
            return self._snapshot()
        if syntax.returns_or_raises(body):
            self._left.append(self.path)  # no run on this path gets past the function's later joins
        return None

    def _only_arm(self, body: List[nodes.NodeNG]) -> bool:
        """Walk the arm of an `if` that every run reaching it takes; False where it cannot fall
        through, so that the rest of the block is walked by no run."""
        through = self._block(body)
        if through and not syntax.leaves(body):
            return True
        if through and syntax.returns_or_raises(body):
            self._left.append(self.path)  # as `_arm` notes an arm that leaves
        return False

    def _tested(self, test: nodes.NodeNG) -> Tuple[Value, Optional[Tuple[str, List[Tuple[Value, Path]], List[Tuple[Value, Path]]]]]:
        """An `if` test's value; and where it hands a name bound to several values, one of them
        a module that may hold shards here, to a call (`isinstance(model, FSDP)`,
        `fsdp_version(model) == 1`), the name with its values on the arm the test takes and on
        the other: the test runs once for each value, each on a path of its own (as a call on
        several values does), so an arm sees only the values that take it."""
        for name in passed_names(test):
            options = options_of(self.env.get(name, UNKNOWN))
            if len(options) > 1 and any(isinstance(o, Obj) and self.may_hold_shards(o) for o in options):
                break
        else:
            value = self._eval(test)
            found = None if isinstance(value, Constant) else self._object_truth(value)
            return (value if found is None else constant(found)), None
        truths: List[Optional[bool]] = []
        fixed: List[Tuple[Path, Path]] = []  # what each arm of the test fixes of each option (`isinstance(m, FSDPModule)`)
        deciding: List[Tuple[Optional[Path], Optional[Path]]] = []  # the flags that decide each arm whole, of each option

        def run(option: Value) -> Value:
            self.env[name] = option
            value = self._eval(test)
            truths.append(test_truth(test, self.value))
            fixed.append((self._fixed(test, True) | self._returned_flags(test, True), self._fixed(test, False) | self._returned_flags(test, False)))
            deciding.append((self._exactly_fixed(test, True), self._exactly_fixed(test, False)))
            return value

        # each option on the runs that choose it, as a call given the name finds it: what was
        # bound from it before (`inner = unwrap(model)`) is narrowed with it (`_not_chosen`)
        bound = self._chosen(next(read for read in test.nodes_of_class(nodes.Name) if read.name == name), self.env[name])
        choices = guarded_options(bound)
        value = self._alternatives(test, [lambda option=option: run(option) for option, _ in choices], [guard for _, guard in choices])
        # what the test and the name are, all runs together: the test described by the runs that
        # give each option, where each option's runs decide it (a `return` on an arm then keeps
        # the runs of the options that take it: `_capture`)
        described = _described_by_options(bound, truths, deciding)
        self.values[test], self.env[name] = described if isinstance(described, Truth) else value, bound
        for read in test.nodes_of_class(nodes.Name):
            if read.name == name:
                self.values[read] = bound
        then = [(option, guard | arms[0]) for (option, guard), found, arms in zip(choices, truths, fixed) if found is not False]
        orelse = [(option, guard | arms[1]) for (option, guard), found, arms in zip(choices, truths, fixed) if found is not True]
        if not then or not orelse:
            value = self.values[test] = constant(bool(then))
            return value, None
        return value, (name, then, orelse)

    def _outcome(self, test: nodes.NodeNG, taken: bool) -> Path:
        """The literals of taking the `taken` arm of `test`: its own, and a flag literal for each
        attribute of an object that the outcome fixes (`if not model.tie:`)."""
        own = paths.literal(test, taken, lambda name: self._versions.get(name, 0), self.project.texts)
        fixed = [paths.flag(subject.root, subject.attrs, value, tested) for subject, tested, value in self._through_getters(test_flags(test, taken, self._flag_subject))]
        self._capture(own, test, taken)
        for described, tested, value in test_flags(test, taken, self._described):
            found = self._value_truth(described, tested)
            if found is not None:  # `if not tied:`, `if not loaded:`
                fixed.extend(truths.arm_literals(found, value))
        presence, present = _negations_removed(test, taken)
        tested = paths.none_test(presence)
        if tested is not None and tested[0] in self.values:  # `if cfg.fsdp2 is not None:`, each option on its runs
            by_options = self._present_by_choice(self.values[tested[0]])
            if by_options is not None:
                fixed.extend(truths.arm_literals(by_options, present != tested[1]))
        fixed.extend(self._returned_flags(test, taken))
        fixed.extend(self._disjunctions(test, taken))
        sharding = self._sharding_literal(test)
        if sharding is not None:  # `isinstance(model, FSDPModule)`: the runs that sharded it
            fixed.append(sharding if taken else (sharding[0], not sharding[1]))
        elif taken:
            self._sharded_outside(test)
        held = (presence.values if isinstance(presence, nodes.BoolOp) and presence.op == "and" else [presence]) if present else []
        for wrapper in filter(None, map(self._wrapper_tested, held)):  # `isinstance(model, DDP)` holds: a wrapper, no FSDPModule
            fixed.append(paths.fsdp_module(wrapper.root, wrapper.attrs, False))
        if fixed:
            self._implied[own] = frozenset(fixed)
        outcome = frozenset([own, *fixed])
        if self._loops and self._pass_goes_on(test, taken):
            self._pass_outcomes |= outcome
        return outcome

    def _pass_goes_on(self, test: nodes.NodeNG, taken: bool) -> bool:
        """Whether taking the `taken` arm of an `if` in a loop's body is how a pass gets on to its
        work: the other arm ends the pass with nothing done (`if batch_idx >= num_batches:
        break`, `if batch is None: continue`, an `if` with no `else` that ends the body), and
        the test reads what the passes bind anew, not the rank. A run takes both arms, on
        different passes; one that no pass gets past did none of the work the loop is for."""
        statement = test.parent
        if not isinstance(statement, nodes.If) or statement.test is not test:
            return False
        other = statement.orelse if taken else statement.body
        if not (syntax.leaves(other) or not other and syntax.ends_pass(statement)):
            return False
        bound = frozenset().union(*(names for _, names in self._loops))
        return paths.reads_any(test, bound) and not any(rank_test(test, arm, parameter=self.parameter_rank) for arm in (True, False))

    def _capture(self, own: paths.Literal, test: nodes.NodeNG, taken: bool) -> None:
        """What describes a test's own outcome whole in outcomes about objects, for what a `return`
        on its arm gives (`_object_path`): the flags it fixes, the runs that do not fix those of its
        other arm (`a and b` not taken), or the conditions each of which takes it."""
        if own in self._captured:
            return
        whole = exact_flags(test, taken, self._described_subject)
        opposite = None if whole else exact_flags(test, not taken, self._described_subject)
        if whole:
            self._captured[own] = frozenset(paths.flag(s.root, s.attrs, v, t) for s, t, v in whole)
        elif opposite:
            self._captured[own] = frozenset([paths.dead(frozenset(paths.flag(s.root, s.attrs, v, t) for s, t, v in opposite))])
        else:
            described = self.values.get(test)
            if isinstance(described, Truth) and any(map(paths.choices, described.when_true + described.when_false)):
                self._chosen_outcomes[own] = described.when_true if taken else described.when_false

    def _disjunctions(self, test: nodes.NodeNG, taken: bool) -> Path:
        """What an arm of `and`/`or` that holds where one operand does (`a and b` not taken, `a or
        b` taken) says: no run that takes the other arm gets here, each way of taking it a dead
        literal. A run that kept the meta model (`os.path.isdir(path)` false, which bound `loaded =
        False`) takes `if not loaded and not os.path.isdir(path):`, so its arm not taken is on no
        such run. Of an arm that holds with every operand, those of its operands."""
        test, taken = _negations_removed(test, taken)
        if not isinstance(test, nodes.BoolOp):
            return EMPTY
        if (test.op == "and") == taken:
            return frozenset().union(*(self._disjunctions(operand, taken) for operand in test.values))
        return truths.arm_literals(self._test_truth(test), taken)

    def _test_truth(self, test: nodes.NodeNG) -> Truth:
        """A test described by the runs that decide it (`not`, `and`, `or` as Python combines its
        operands): each operand by its own outcome, by the flags that say that outcome whole, and
        by the description of its value (a helper's `tied`, a name bound on several arms)."""
        test, value = _negations_removed(test, True)
        if isinstance(test, nodes.BoolOp):
            found = (truths.disjunction if test.op == "or" else truths.conjunction)([self._test_truth(operand) for operand in test.values])
        else:
            found = Truth(self._ways_to(test, True), self._ways_to(test, False))
        return found if value else truths.negated(found)

    def _ways_to(self, test: nodes.NodeNG, taken: bool) -> truths.Alternatives:
        """Conjunctions each of which takes the `taken` arm of a test that is no `and`/`or`."""
        own = paths.literal(test, taken, lambda name: self._versions.get(name, 0), self.project.texts)
        self._capture(own, test, taken)  # an operand's outcome in a dead literal of the arm (`_disjunctions`) reads as its flags too
        ways: List[Path] = [frozenset([own])]
        flagged = self._exactly_fixed(test, taken)
        if flagged:
            ways.append(flagged)
        found = [(self._value_truth(expr, tested), outcome) for expr, tested, outcome in exact_flags(test, taken, self._described) or []]
        if found and all(value is not None for value, _ in found):
            ways.extend(truths.all_of([value.when_true if outcome else value.when_false for value, outcome in found]))  # type: ignore[union-attr]
        return tuple(ways)

    def _exactly_fixed(self, test: nodes.NodeNG, taken: bool) -> Optional[Path]:
        """The flags of objects that say all that taking the `taken` arm of `test` says, as it
        reads here (every run that has them takes it: `exact_flags`); None where none do."""
        flagged = exact_flags(test, taken, self._flag_subject)
        return frozenset(paths.flag(s.root, s.attrs, v, t) for s, t, v in self._through_getters(flagged)) if flagged else None

    def _value_truth(self, expr: nodes.NodeNG, tested: paths.Test) -> Optional[Truth]:
        """Whether the described value of `expr` passes `tested` (a helper's `tied`; a name bound
        on several arms, by the runs of each: `truths.of_options`), each condition without a
        test's own outcome where the flags that say it whole stand beside it: they are one
        outcome, and the flags alone are what a shard event or a caller's test shares
        (`fsdp_algorithm = 2` where `hasattr(model, "set_requires_gradient_sync")`)."""
        found = self.values[expr]
        found = found if isinstance(found, Truth) else truths.of_options(found, tested)
        if found is None:
            return None
        return Truth(tuple(map(self._flags_for_own, found.when_true)), tuple(map(self._flags_for_own, found.when_false)))

    def _flags_for_own(self, condition: Path) -> Path:
        own = [literal for literal in condition if literal in self._captured and self._captured[literal] <= condition]
        return condition.difference(own) if own else condition

    def _returned_flags(self, test: nodes.NodeNG, taken: bool) -> Path:
        """The flags of objects that every run on which `test` is `taken` has, where its value is
        one of several a call returned, each on the runs its `return` took (`_is_distributed(model)`:
        True where `model` is an `FSDPModule`, else what a test of its parameters finds): those the
        ways to each `return` that may give that truth share."""
        value = self.values.get(test)
        if not isinstance(value, Either) or not value.guards:
            return EMPTY
        ways = [
            paths.flag_literals(guard) for option, guard in guarded_options(value)
            if not isinstance(option, Constant) or bool(option.value) is taken
        ]
        return frozenset.intersection(*ways) if ways else EMPTY

    def _fixed(self, test: nodes.NodeNG, taken: bool) -> Path:
        """The flags of objects that taking the `taken` arm of `test` fixes, as it reads here."""
        return frozenset(paths.flag(s.root, s.attrs, v, t) for s, t, v in self._through_getters(test_flags(test, taken, self._flag_subject)))

    def _described(self, expr: nodes.NodeNG) -> Optional[nodes.NodeNG]:
        """`expr` where its value is a described boolean (`tied`, bound to what a helper returned),
        or one of several values each bound on its arm's runs (`truths.of_options`)."""
        found = self.values.get(expr)
        return expr if isinstance(found, Truth) or isinstance(found, Either) and found.guards else None

    def _flag_truth(self, test: nodes.NodeNG) -> Value:
        """A test of attributes (`weight is not None`) described by the flags it fixes."""
        when_true, when_false = (exact_flags(test, value, self._described_subject) for value in (True, False))
        if when_true is None and when_false is None:
            return UNKNOWN
        return Truth(*(
            (frozenset(paths.flag(s.root, s.attrs, v, t) for s, t, v in found),) if found is not None else ()
            for found in (when_true, when_false)
        ))

    def _present_by_choice(self, value: Value) -> Optional[Truth]:
        """`x is not None` of a value of several objects (or None), each on the runs that choose it
        (`paths.choices`) or on runs outcomes about objects tell apart (a field of a record built
        from one of several dicts, `cfg.fsdp2`, given where `FSDP_VERSION` is "2"): true where
        the run chooses an object that is there, false where it chooses None or an object that is
        not. None for other values, and where an object is given on runs nothing tells apart."""
        options = guarded_options(value)
        objects = sum(isinstance(o, Obj) for o, _ in options)
        if objects < 2 and not (objects == 1 and len(options) > 1 and all(_telling(guard) for _, guard in options)):
            return None
        if not all(_telling(guard) for o, guard in options if isinstance(o, Obj)):
            return None
        when_true, when_false = [], []
        for option, guard in options:
            chosen = _telling(guard)
            if isinstance(option, Obj):
                found = self.canonical(option)
                when_true.append(chosen | {paths.flag(found.root, found.attrs, True)})
                when_false.append(chosen | {paths.flag(found.root, found.attrs, False)})
            elif isinstance(option, Constant) and option.value is None:
                if chosen:  # (None given on several ways is chosen on none of them alone)
                    when_false.append(chosen)
            else:
                return None
        return Truth(tuple(when_true), tuple(when_false))

    def _identity(self, test: nodes.Compare) -> Value:
        """`a is b` of two attributes, each of one object (or None): true where they are one
        object (`embed.weight is head.weight`), as an identity literal; false where they are two,
        when neither may be None. `is not` the other way round. A side of several objects, each
        on the runs that choose it (`paths.choices`), is each of them on its own runs."""
        sides = [guarded_options(self._eval(side)) for side in (test.left, test.ops[0][1])]
        if not all(isinstance(o, Obj) or isinstance(o, Constant) and o.value is None for options in sides for o, _ in options):
            return UNKNOWN
        found = [[(self.canonical(o), paths.choices(guard) if len(options) > 1 else EMPTY) for o, guard in options if isinstance(o, Obj)] for options in sides]
        several = any(len(objects) > 1 for objects in found)
        if not all(found) or any(len(objects) > 1 and not all(chosen for _, chosen in objects) for objects in found):
            return UNKNOWN
        when_true, when_false = [], []
        for a, a_chosen in found[0]:
            for b, b_chosen in found[1]:
                if (a.root, a.attrs) == (b.root, b.attrs):
                    return UNKNOWN
                chosen = a_chosen | b_chosen
                same = paths.same((a.root, a.attrs), (b.root, b.attrs), True)
                when_true.append(chosen | {same})
                when_false.append(chosen | {(same[0], False)})
        may_be_none = any(not isinstance(o, Obj) for options in sides for o, _ in options)
        described = Truth(tuple(when_true), () if may_be_none and not several else tuple(when_false))
        return described if test.ops[0][0] == "is" else truths.negated(described)

    def _object_path(self) -> Optional[truths.Alternatives]:
        """The way here (a `return`) as outcomes about objects only, which a caller can read: a
        test's own outcome is replaced by the flags that describe it whole, or by the conditions
        each of which takes it (a test of names bound to several objects: `left is None`, on the
        objects each run chooses); None where one is not so described, or where a `return` in a
        loop or a `try` may have ended a run the way does not tell apart."""
        if self.project.exits_inside_loops(self.scope):
            return None
        found: Set[paths.Literal] = set()
        chosen: List[truths.Alternatives] = []
        for literal in self.path:
            translated = self._about_objects(literal)
            if translated is None:
                if literal not in self._chosen_outcomes:
                    return None
                chosen.append(self._chosen_outcomes[literal])
                continue
            found |= translated
        return truths.all_of([(frozenset(found),), *chosen])

    def _about_objects(self, literal: paths.Literal) -> Optional[Path]:
        """A literal of the way here as outcomes a caller can read: itself where it is about
        objects, or which object a name of a walk is (`paths.chosen`: that walk's, whoever reads
        it, as `_mapped_choices` maps it); what describes a test's outcome whole (`_captured`);
        None where nothing does."""
        if literal[0][0] in ("flag", "same") or paths.choices(frozenset([literal])):
            return frozenset([literal])
        if literal in self._captured:
            return self._captured[literal]
        if literal[0][0] == "dead" and literal[1]:
            inner = [self._about_objects(item) for item in literal[0][1]]  # type: ignore[union-attr]
            if all(found is not None for found in inner):
                return frozenset([paths.dead(frozenset().union(*inner))])  # type: ignore[arg-type]
        return None

    def _sharding_literal(self, test: nodes.NodeNG) -> Optional[paths.Literal]:
        """For a test `isinstance(x, FSDPModule)` (or `not` it) that this walk does not decide:
        the one branch outcome on the way here that decides whether x is sharded (`if shard:
        fully_shard(model)` before it), so that its arms take that outcome and its opposite; None
        where no single outcome does (x of unknown origin, or sharded under several)."""
        negated = False
        while isinstance(test, nodes.UnaryOp) and test.op == "not":
            test, negated = test.operand, not negated
        tested = self._fsdp_module_tested(test)
        if tested is None or isinstance(self.value(test), Constant):
            return None
        options = options_of(self.value(tested))
        if len(options) != 1 or not isinstance(options[0], Obj) or not self._known_module(options[0]):
            return None
        names = self.names_of(options[0])
        found: Optional[paths.Literal] = None
        sure = False
        for event in self._shards_of_module(names):
            extra = _conditions(event) - self.path
            # a test's own outcome and the flags that describe it whole are one outcome
            outcome = {literal for literal in extra if not (literal in self._captured and self._captured[literal] <= extra)}
            if len(outcome) != 1 or found not in (None, *outcome) or next(iter(outcome))[0][0] not in ("bool", "eq", "flag"):
                return None
            found = next(iter(outcome))
            sure = sure or _shards_exactly(event, names) and self._on_every_run(event, test, extra)
        if found is None or not sure:
            return None
        return (found[0], not found[1]) if negated else found

    def _instance_test(self, test: nodes.NodeNG) -> Optional[Tuple[nodes.NodeNG, List[Optional[str]]]]:
        """For a test `isinstance(x, C)` or `isinstance(x, (C, D))` of the builtin: x's expression
        and the classes' qualified names; None for other tests."""
        if not (isinstance(test, nodes.Call) and isinstance(test.func, nodes.Name) and test.func.name == "isinstance" and len(test.args) == 2):
            return None
        if not _is_builtin(self.project.binding(test.func)):
            return None
        return test.args[0], [self.qualified_name(c) for c in (test.args[1].elts if isinstance(test.args[1], nodes.Tuple) else [test.args[1]])]

    def _wrapper_tested(self, test: nodes.NodeNG) -> Optional[Obj]:
        """The object a test `isinstance(x, DDP)` (DDP, `DataParallel` or FSDP1's wrapper only)
        asks about: where it holds, x is that wrapper, which FSDP2 does not shard (`fully_shard`
        is given the module inside it), so no `FSDPModule`; None for other tests."""
        found = self._instance_test(test)
        wrappers = known_apis.FSDP1_WRAPPERS | known_apis.DDP_WRAPPERS | known_apis.DATA_PARALLEL
        if found is None or not all(name in wrappers for name in found[1]):
            return None
        options = options_of(self.value(found[0]))
        if len(options) != 1 or not isinstance(options[0], Obj):
            return None
        obj = self.canonical(options[0])
        return None if any(map(is_wildcard, obj.attrs)) else obj

    def _sharded_outside(self, test: nodes.NodeNG) -> None:
        """For a test `isinstance(x, FSDPModule)` (or `not` it) this walk does not decide, of an
        object no `fully_shard` it sees may have sharded: code it does not see did, before this
        walk, on the runs where the test holds (`fully_shard` swaps the module's class for one
        deriving from `FSDPModule`; nothing else makes one). The arm that takes the test sees `x`
        sharded, the other does not, and after them it may be."""
        test, _ = _negations_removed(test, True)
        tested = self._fsdp_module_tested(test)
        if tested is None:
            return
        options = options_of(self.value(tested))
        if len(options) != 1 or not isinstance(options[0], Obj):
            return
        obj = self.canonical(options[0])
        if any(map(is_wildcard, obj.attrs)) or self.may_hold_shards(obj):
            return
        event = ShardEvent(obj, test, -1, origin=Origin(test, "code outside the tree"), path=frozenset([paths.fsdp_module(obj.root, obj.attrs)]))
        if event not in self.events:
            self.events.append(event)

    def _through_getters(self, found: List[Tuple[Obj, paths.Test, bool]]) -> List[Tuple[Obj, paths.Test, bool]]:
        """Outcomes of tests of attributes, with the outcome of the attribute a property returns
        for each property whose outcome it is (`class_values.attribute_or_constants`): a caller
        testing `state.state_dict_type == "sharded"` and a callee testing
        `self.config.state_dict_type == "full"` test one flag."""
        extra = []
        for subject, test, value in found:
            seen = {subject}
            while subject.attrs and len(seen) < 4:
                owner = Obj(subject.root, subject.attrs[:-1])
                cls = self._class_of(self.canonical(owner) if owner.attrs else owner)
                getter = class_values.property_getter(self.project, cls, subject.attrs[-1]) if cls is not None else None
                returned = class_values.attribute_or_constants(getter) if getter is not None else None
                if returned is None or any(paths.passes(constant, test) is value for constant in returned[1]):
                    break
                subject = self.canonical(Obj(owner.root, owner.attrs + returned[0]))
                if subject in seen:
                    break
                seen.add(subject)
                extra.append((subject, test, value))
        return found + extra if extra else found

    def _described_subject(self, expr: nodes.NodeNG) -> Optional[Obj]:
        """A flag as `_flag_subject` finds it, or a parameter itself (`left is None`): what
        describes a boolean a helper returns, in terms its caller maps to the objects it passes.
        Not a branch outcome of the walk: a parameter's truth is rarely known where it is passed
        (`if optimizers:`), and a path holding it would set apart runs the caller cannot."""
        found = self._flag_subject(expr)
        if found is None and isinstance(expr, nodes.Name):
            owner = self.env.get(expr.name)
            if isinstance(owner, Obj) and not owner.attrs and not self.is_local(owner.root):
                return owner
        return found

    def _fsdp_module_tested(self, test: nodes.NodeNG) -> Optional[nodes.NodeNG]:
        """The expression a test `isinstance(x, FSDPModule)` asks about (FSDP2's module classes,
        or with other classes too where x is known to be an instance of none of them:
        `isinstance(model, (FSDPModule, DDP))` of a module of a class of the tree), or `hasattr(x, "unshard")` of a method
        only `FSDPModule` adds (`known_apis.FSDP_MODULE_METHODS`); None for other tests."""
        if (
            isinstance(test, nodes.Call) and isinstance(test.func, nodes.Name) and test.func.name == "hasattr" and len(test.args) == 2
            and isinstance(test.args[1], nodes.Const) and test.args[1].value in known_apis.FSDP_MODULE_METHODS
        ):
            return test.args[0] if _is_builtin(self.project.binding(test.func)) else None
        found = self._instance_test(test)
        if found is None:
            return None
        tested, classes = found
        others = [name for name in classes if name not in known_apis.FSDP2_MODULES]
        if not others:
            return tested
        if len(others) == len(classes):
            return None
        options = options_of(self.value(tested))
        if len(options) == 1 and isinstance(options[0], Obj) and self._instance_of(options[0], others, test) is False:  # type: ignore[arg-type]
            return tested
        return None

    def _flag_subject(self, expr: nodes.NodeNG) -> Optional[Obj]:
        """The attribute of an object that a test reads (`model.tie`, `self.mesh`), by
        its path from the object, not by the value it holds: the same attribute is the same flag
        in every function the object reaches. An attribute that holds another object's attribute
        is that one (`self.fsdp = args.fsdp`, a config built from `args`), and so is a variable
        bound to one (`enabled = self.config.fsdp`): a copy of a flag is the flag, and so is what
        a call reads and returns (`is_actor(model)`, `getattr(model, "is_actor", False)`: a
        missing attribute is false). A test `isinstance(x, FSDPModule)` of one module reads its
        `paths.FSDP_MODULE` flag."""
        tested = self._fsdp_module_tested(expr)
        if tested is not None:
            options = options_of(self.value(tested))
            module = self.canonical(options[0]) if len(options) == 1 and isinstance(options[0], Obj) else None
            if module is None or any(map(is_member, module.attrs)):
                return None
            return Obj(module.root, module.attrs + (paths.FSDP_MODULE,))
        chain = paths.name_chain(expr)
        if chain is None:
            chain = paths.name_chain(expr, keys=True)  # `conf["data"]` of an object: the entry `conf.data` is
            if chain is None or not isinstance(self.env.get(chain[0]), Obj):
                return self._read_attribute(expr) if isinstance(expr, (nodes.Call, nodes.Subscript, nodes.Attribute)) else None  # `get_args().fsdp`
        base, *attrs = chain
        if not attrs and base in self._told and not self._versions.get(base):
            return Obj(self.param_roots[base])  # a flag the caller passed, which its context describes
        owner = self.env.get(base)
        if not attrs:
            objects = [o for o in options_of(owner) if not (isinstance(o, Constant) and o.value is None)] if owner is not None else []
            owner = objects[0] if len(objects) == 1 else None
            if not isinstance(owner, Obj) or not owner.attrs:
                return None
        return self.canonical(Obj(owner.root, owner.attrs + tuple(attrs))) if isinstance(owner, Obj) else None

    def _environment_read(self, node: nodes.NodeNG, read: nodes.NodeNG) -> Optional[Value]:
        """The variable of the process environment `node` reads (`read`: the function it calls,
        or the object it subscripts), where the tree writes it nowhere (`environment`); None
        for other expressions and variables."""
        if not isinstance(read, nodes.Attribute) and not (isinstance(read, nodes.Name) and read.name in ("environ", "getenv")):
            return None
        name = environment.read_name(node, self.qualified_name(read))
        if name is None or name in self.project.environment_written:
            return None
        return WORLD_SIZE if name == known_apis.WORLD_SIZE_VARIABLE else environment.variable(name)

    def _read_attribute(self, call: nodes.NodeNG) -> Optional[Obj]:
        """The attribute of an object a call (or a subscript) returns as it is, or a false
        default where the object has none; None for other calls."""
        found = [o for o in options_of(self.value(call)) if not (isinstance(o, Constant) and (o.value is None or o.value is False))]
        if len(found) != 1 or not isinstance(found[0], Obj) or not found[0].attrs or any(map(is_wildcard, found[0].attrs)):
            return None
        return self.canonical(found[0])

    def flag_value(self, path: Path, flag: Obj, test: paths.Test = paths.TRUTH) -> Optional[bool]:
        """Whether the attribute `flag` passes `test` (default: is true) on every run through
        `path`, where a branch on that path (here, in a caller, or in a callee) decided it; None
        where none did."""
        flag = self.canonical(flag)
        return paths.flag_value(path, flag.root, flag.attrs, test)

    def _block(self, statements: List[nodes.NodeNG]) -> bool:
        """Walk statements in order; False where one of them never falls through: an `if` whose
        test this walk decides (`if isinstance(model, FSDPModule): return model` with the model
        sharded), a `return` or `raise` before the block's end, a call that never returns
        (`sys.exit()`) or raises on every run: the rest is not walked, no run reaches it."""
        if self._raising:
            return False  # a statement's header raised (`if model.no_sync():`): no run enters its blocks
        guards = 0
        through = True
        for index, statement in enumerate(statements):
            if not self._statement(statement) or self._raised():
                through = False
                break
            if isinstance(statement, (nodes.Return, nodes.Raise)) and index < len(statements) - 1:
                # what follows a `return` in its block is dead code: no run on this path gets
                # past it (as `_arm` notes an arm that ends with one)
                self._left.append(self.path)
                through = False
                break
            if isinstance(statement, nodes.If) and syntax.leaves(statement.body) and not statement.orelse:
                if syntax.returns(statement.body) and not isinstance(self.value(statement.test), Constant):
                    # `if test: return` - the rest of the block runs only where `test` is false.
                    self.conditions.append((statement.test, False))
                    guards += 1
        if guards:
            del self.conditions[-guards:]
        return through

    def _statement(self, node: nodes.NodeNG) -> bool:
        """Walk one statement; False only for an `if` whose test this walk decides, taking an
        arm that never falls through."""
        if isinstance(node, (nodes.FunctionDef, nodes.ClassDef, nodes.Import, nodes.ImportFrom)):
            return True
        if isinstance(node, nodes.Assign):
            value = self._eval(node.value)
            for target in node.targets:
                self._bind(target, value)
        elif isinstance(node, (nodes.AnnAssign, nodes.AugAssign)):
            if node.value is not None:
                value = self._eval(node.value)
                if isinstance(node, nodes.AnnAssign):
                    self._bind(node.target, value)
                elif any(isinstance(option, Constant) for option in options_of(self._bound_value(node.target))):
                    self._bind(node.target, UNKNOWN)  # `count += 1`: a new value (an object stays itself)
                elif node.op == "+=" and isinstance(node.target, nodes.AssignName) and isinstance(self.env.get(node.target.name), (Container, Either)):
                    self._bind(node.target, containers.grown(self.env[node.target.name], value, not syntax.may_repeat(node)))  # `params += [...]`: a list gains items
        elif isinstance(node, nodes.Expr):
            self._eval(node.value)
        elif isinstance(node, nodes.Delete):
            for target in node.targets:  # `del args["tp"]`: that entry is gone
                self._eval(target)
                if isinstance(target, nodes.Subscript):
                    self._rebind_container(target.value, containers.removed(self.value(target.value), self.value(target.slice)))
                    owner = self._entries_of(target.value)
                    if owner is not None:  # `del config["fsdp"]` of a configuration from YAML
                        self._entry_removed(owner, self.value(target.slice), target)
        elif isinstance(node, nodes.Return):
            returned = self._eval(node.value) if node.value is not None else UNKNOWN
            if self._meta_depth and node.value is not None:  # `return Model()` under `with torch.device("meta")`: an object on the meta device
                returned = self._materialise(returned, node.value)
            self._store(returned)
            if node.parent is not self.scope and any(self.is_local(o.root) for o in related_objects(returned)):
                # what the objects it returns hold as it returns them: a `return` in an arm
                # leaves a state the end of the function does not have
                self._returned_writes.extend(w for w in _reached(self._attribute_writes()[1], [returned]) if w not in self._returned_writes)
            self.returns.append(returned)
            self._returned_at.append(self._object_path())
            self._leaving.append((self.point(), returned))
        elif isinstance(node, nodes.If):
            tested, narrowed = self._tested(node.test)
            if isinstance(tested, Constant):
                # a flag this context fixes (`if rank0:` with `rank0=True` passed): one arm runs
                return self._only_arm(node.body if tested.value else node.orelse)
            start = self._snapshot()
            outcomes = self._outcome(node.test, True), self._outcome(node.test, False)  # both in the state the test saw
            then_runs, else_runs = (paths.compatible(self.path, outcome) for outcome in outcomes)
            if then_runs != else_runs:
                # the tests that led here decide this one (`kind == "full"` where `kind == "sharded"` held)
                self.path = self.path | outcomes[0 if then_runs else 1]
                return self._only_arm(node.body if then_runs else node.orelse)
            self._undecided.append((outcomes[0] | outcomes[1], node.test))
            self.conditions.append((node.test, True))
            starts = (start, start) if narrowed is None else _narrowed(start, narrowed)
            then = self._arm(node.body, starts[0], outcomes[0])
            self.conditions[-1] = (node.test, False)
            orelse = self._arm(node.orelse, starts[1], outcomes[1])
            self.conditions.pop()
            self._join([then, orelse])
        elif isinstance(node, (nodes.For, nodes.AsyncFor)):
            iterated = self._eval(node.iter)
            in_order = containers.in_order(iterated)
            # A loop over what holds an item runs its body (`for m in [model]`), unless a `break`
            # may end it first: then where it ends is open.
            through = runs_through(iterated) and not syntax.breaks(node)
            if in_order:
                # A literal list of modules runs its items in order (`[*vision.blocks, vision, *layers]`).
                start = self._snapshot()
                first_step = len(self.meta_steps)
                self._loops.append((self.path, syntax.loop_bound(node)))
                for item in in_order:
                    self._bind(node.target, item)
                    self._block(node.body)
                self._loops.pop()
                if not through:
                    self._join([start, self._snapshot()])
                self._passed_loop(first_step)
            else:
                element = containers.element_of(iterated)
                at_least_once = known_apis.never_empty(node.iter) or through
                later = containers.next_item(element)
                self._loop(node, lambda index: self._bind(node.target, later if index else element), objects_in(element), at_least_once, self._pass_counter(node))
            self._block(node.orelse)
        elif isinstance(node, nodes.While):
            self._eval(node.test)
            self.conditions.append((node.test, True))
            self._loop(node, lambda index: None, ())
            self.conditions.pop()
            self._block(node.orelse)
        elif isinstance(node, (nodes.With, nodes.AsyncWith)):
            meta = 0
            entered = len(self._exits)
            for item, alias in node.items:
                value = self._eval(item)
                meta += known_apis.is_meta_device_context(item, self.qualified_name)
                if alias is not None:
                    self._bind(alias, value)
            if self._raising:
                return True  # no run enters the block (`with model.summon_full_params():` of an FSDP2 module)
            self._meta_depth += meta
            self._block(node.body)
            self._meta_depth -= meta
            self._leave_contexts(entered)
        elif isinstance(node, syntax.TRY_NODES):
            start = self._snapshot()
            self._block(node.body)
            after_body = self._snapshot()
            ends: List[Optional[_State]] = [None if syntax.leaves(node.body) else after_body]
            for handler in node.handlers:
                # A handler starts from anywhere in the body: the state before or after it.
                self._join([start, after_body])
                self._block(handler.body)
                ends.append(None if syntax.leaves(handler.body) else self._snapshot())
            self._join(ends if any(e is not None for e in ends) else [after_body])
            self._block(node.orelse)
            self._block(node.finalbody)
        elif isinstance(node, nodes.Match):
            self._eval(node.subject)
            start = self._snapshot()
            ends = [self._arm(case.body, start) for case in node.cases]
            ends.append(start)  # no case may match
            self._join(ends)
        else:
            for child in node.get_children():
                if isinstance(child, nodes.NodeNG) and not child.is_statement:
                    self._eval(child)
        return True

    def _leave_contexts(self, entered: int) -> None:
        """Where a `with` block ends, the code after the `yield` of each `@contextmanager` it
        entered, innermost first, in the context the block leaves (facts both ways, as for a
        call), on the paths that entered it."""
        while len(self._exits) > entered:
            leaving = self._exits.pop()
            here = self.path
            self.path = here | leaving.path
            self._apply_summary(leaving.call, leaving.func, leaving.receiver, leaving.args, leaving.keywords, at_exit=True)
            self.path = here

    def _loop(
        self, loop: Union[nodes.For, nodes.AsyncFor, nodes.While], bind_target, elements: Tuple[Obj, ...], at_least_once: bool = False,
        counter: Optional[str] = None,
    ) -> None:
        """Run a loop body as its first iteration, then, unless that changed no binding, as the
        later ones, starting where the first ended (a flag the first iteration set, `sharded =
        True`, is set in the second); the state after the loop joins the state before it (the
        body may run zero times) and the end of each pass.

        Each pass takes another item of what is iterated (`bind_target(index)`), although the
        analysis names all the items of a list `items[*]`: what the first pass did to its item is
        on a path of its own (an iteration literal), so the second pass does not see its own item
        as already sharded. An item of `model.modules()` is a member of its own in each pass
        (`containers.next_item`). So is an item subscripted by the loop's `counter` (`for i in
        range(n): fully_shard(model.layers[i])`): another on each pass."""
        before = self._snapshot()
        ends = [] if at_least_once else [before]
        first_step = len(self.meta_steps)
        iteration = (("iter", f"{loop.lineno}:{loop.col_offset}"),)
        self._pass_outcomes.add((iteration, False))
        self._loops.append((self.path, syntax.loop_bound(loop)))
        counted: List[Obj] = []
        for index in range(2):
            entry = self._snapshot()
            first_event = len(self.events)
            if index:
                self.path = self.path | {(iteration, False)}
            bind_target(index)
            if counter is not None and not index:
                self._counted.append((counter, counted))
                self._block(loop.body)
                self._counted.pop()
            else:
                self._block(loop.body)
            passed = elements + tuple(counted)
            if not index and passed:
                for event in self.events[first_event:]:
                    if any(self.contains(element, event.target) for element in passed):
                        event.path = event.path | {(iteration, True)}
            ends.append(self._snapshot())
            if self.env == entry.env and self.attr_env == entry.attr_env:
                break
        self._loops.pop()
        self._join(ends)
        self._passed_loop(first_step)

    def _pass_counter(self, loop: Union[nodes.For, nodes.AsyncFor]) -> Optional[str]:
        """The name `loop` binds to its pass's number (`syntax.pass_counter`), where the iterator
        it counts with is the builtin."""
        found = syntax.pass_counter(loop)
        return found[1] if found is not None and self.project.binding(found[0]) is None else None

    def _count_pass_item(self, name: str, item: Value) -> None:
        """`items[name]` read in the first pass of the innermost loop counting its passes in
        `name`: the objects it may be are that pass's own."""
        for counter, counted in reversed(self._counted):
            if counter == name:
                counted.extend(option for option in options_of(item) if isinstance(option, Obj) and option not in counted)
                return

    def _passed_loop(self, first_step: int) -> None:
        """Where a loop ends, each object on the meta device is as far as some pass got it, on
        every run: the tests in its body tell its items apart, not its runs (`for m in
        model.modules(): if isinstance(m, nn.Linear): m.reset_parameters()` initialises the
        model, although no one pass does it all)."""
        furthest: Dict[MetaKey, MetaState] = {}
        for _, key, state in self.meta_steps[first_step:]:
            furthest[key] = max(furthest.get(key, MetaState.NONE), state)
        if furthest:
            at = Point(self._tick(), self.path)
            self.meta_steps.extend((at, key, state) for key, state in furthest.items())

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
        if isinstance(node, nodes.Const):  # the commonest leaf: no children
            return constant(node.value)
        if isinstance(node, nodes.Subscript):
            read = self._environment_read(node, node.value)
            if read is not None:
                return read
            base = self._eval(node.value)
            index = self._eval(node.slice)
            # each dict's entry on the runs that give that dict (`sd["state_dict"]` of a full state
            # dict on one arm and the module's own on the other)
            item = mapped_options(base, lambda option: self._entry(option, index) or containers.subscript(option, node.slice, index))
            if self._counted and isinstance(node.slice, nodes.Name):
                self._count_pass_item(node.slice.name, item)
            return item
        if isinstance(node, nodes.Call):
            return self._call(node)
        if isinstance(node, (nodes.List, nodes.Tuple, nodes.Set)):
            return self._literal(node)
        if isinstance(node, nodes.Dict):
            return self._dict(node)
        if isinstance(node, (nodes.ListComp, nodes.GeneratorExp, nodes.SetComp)):
            nonempty = self._generators(node, self._eval(node.generators[0].iter))
            element = self._eval(node.elt)
            if isinstance(element, Params):  # a list or set holds the tensors of now; a generator reads them when consumed
                return element if isinstance(node, nodes.GeneratorExp) else self._collected(element, node)
            return Iterable(element, nonempty)
        if isinstance(node, nodes.DictComp):
            return self._dict_comprehension(node)
        if isinstance(node, nodes.Starred):
            return self._eval(node.value)
        if isinstance(node, nodes.NamedExpr):
            value = self._eval(node.value)
            self._bind(node.target, value)
            return value
        if isinstance(node, nodes.BoolOp):
            return self._bool_op(node)
        if isinstance(node, nodes.IfExp):
            return self._conditional(node)
        if isinstance(node, nodes.UnaryOp) and node.op == "not":
            operand = self._eval(node.operand)
            if isinstance(operand, Constant):
                return Constant(not operand.value)
            return truths.negated(operand) if isinstance(operand, Truth) else UNKNOWN
        tested = paths.none_test(node)
        if tested is not None:
            subject, is_none = tested
            value = self._eval(subject)
            none = self._is_none(value)
            if none is None:
                present = self._present_by_choice(value)
                if present is not None:
                    return truths.negated(present) if is_none else present
            return self._flag_truth(node) if none is None else Constant(none == is_none)
        if isinstance(node, nodes.Compare) and len(node.ops) == 1:
            if node.ops[0][0] in ("is", "is not"):
                return self._identity(node)
            found = compared(node.ops[0][0], self._eval(node.left), self._eval(node.ops[0][1]))
            # an attribute tested against a constant (`self.config.state_dict_type == "full"`),
            # described by the flags it fixes: what a property returns of it
            return self._flag_truth(node) if isinstance(found, Unknown) and node.ops[0][0] in ("==", "!=") else found
        if isinstance(node, nodes.Lambda):
            return UNKNOWN
        if isinstance(node, (nodes.JoinedStr, nodes.BinOp)):
            return self._string_built(node)
        if isinstance(node, nodes.Await):
            return self._eval(node.value)
        if isinstance(node, nodes.Yield):
            self.yielded.append(self._eval(node.value))
            self.yields.append(Point(self._tick(), self.path))
            return UNKNOWN
        for child in node.get_children():
            self._eval(child)
        return UNKNOWN

    def _string_built(self, node: Union[nodes.JoinedStr, nodes.BinOp]) -> Value:
        """An f-string, or `a + b`, `a / b`, `a % b`: a file name of this rank's (`RankNamed`)
        where a part of it is (in a sum, a path or a format with a string), else unknown."""
        parts = list(node.get_children())
        for part in parts:
            self._eval(part)
        if isinstance(node, nodes.JoinedStr):
            formatted = [part.value for part in node.values if isinstance(part, nodes.FormattedValue)]
            return RANK_NAMED if mentions_rank(node) or any(isinstance(self.value(v), RankNamed) for v in formatted) else UNKNOWN
        if node.op not in ("+", "/", "%"):
            return UNKNOWN
        if any(isinstance(self.value(part), RankNamed) for part in parts):
            return RANK_NAMED
        # a path joined with `/`, or a sum or format with a string in it: not `rank + 1`
        textual = node.op == "/" or any(isinstance(part, nodes.JoinedStr) or isinstance(part, nodes.Const) and isinstance(part.value, str) for part in parts)
        return RANK_NAMED if textual and any(self._rank_named(part) for part in parts) else UNKNOWN

    def _conditional(self, node: nodes.IfExp) -> Value:
        """`a if test else b`, each on the runs that take its arm. Where the test hands a name
        bound to several objects to a call (`model.model if is_actor(model) else model`, `model`
        one of two), it runs once for each, each on a path of its own: what it finds of each is a
        flag of that one."""
        name = next((n for n in passed_names(node.test) if sum(isinstance(o, Obj) for o in options_of(self.env.get(n, UNKNOWN))) > 1), None)
        if name is None:
            return self._arms(node)
        bound = self.env[name]

        def run(option: Value) -> Value:
            self.env[name] = option
            return self._arms(node)

        value = self._alternatives(node, [lambda option=option: run(option) for option in options_of(bound)], [runs for _, runs in guarded_options(bound)])
        self.env[name] = bound
        for read in node.nodes_of_class(nodes.Name):
            if read.name == name:
                self.values[read] = bound
        return value

    def _arms(self, node: nodes.IfExp) -> Value:
        tested = self._eval(node.test)
        if isinstance(tested, Constant):  # a test this context decides: one arm runs
            return self._eval(node.body if tested.value else node.orelse)
        start = self._snapshot()
        outcomes = self._outcome(node.test, True), self._outcome(node.test, False)
        self.conditions.append((node.test, True))
        self.path = start.path | outcomes[0]
        body = self._eval(node.body)
        self.conditions[-1] = (node.test, False)
        self.path = start.path | outcomes[1]
        orelse = self._eval(node.orelse)
        self.conditions.pop()
        self.path = start.path
        return guarded([(body, outcomes[0]), (orelse, outcomes[1])])

    def _bool_op(self, node: nodes.BoolOp) -> Value:
        """`a or b`: `a` where it is true, else `b`, which runs only there (`and`: where `a` is
        false); the value is the join of the operands that can be the result (`module or self`
        with a module passed is the module, with None passed is `self`)."""
        ends = node.op == "or"  # the truth value of an operand that is the result
        start = self.path
        results: List[Value] = []
        described: List[Optional[Truth]] = []
        for index, operand in enumerate(node.values):
            value = self._eval(operand)
            found = truths.of(value)
            if found is None:  # a flag read as it is (`self.config.load_monolith_rank0_only`)
                flagged = self._flag_truth(operand)
                found = flagged if isinstance(flagged, Truth) else None
            described.append(found)
            if index == len(node.values) - 1:
                results.append(value)
                break
            options = options_of(value)
            results.extend(option for option in options if truth(option) in (ends, None))
            if all(truth(option) is ends for option in options):
                break  # the rest never runs
            self.conditions.append((operand, not ends))
            self.path = self.path | self._outcome(operand, not ends)
        del self.conditions[len(self.conditions) - index:]
        self.path = start
        booleans = all(isinstance(value, (Truth, Unknown)) or type(value) is Constant and isinstance(value.value, bool) for value in results)
        if None not in described and any(isinstance(value, Truth) for value in results) or None in described and any(found is not None for found in described) and booleans:
            # booleans of booleans, one of them described: so is the result (as far as the
            # described ones say, `isinstance(m, FSDPModule) or is_compiled(m)`)
            return (truths.disjunction if ends else truths.conjunction)(described)
        return either(results)

    def _generators(self, node: Union[nodes.ListComp, nodes.GeneratorExp, nodes.SetComp, nodes.DictComp], source: Value) -> bool:
        """Bind the targets of a comprehension's `for`s to the elements of their sources (the
        first one's already evaluated) and evaluate its filters; whether it produces an element
        at least: each source produces one and each filter keeps it."""
        nonempty = True
        for index, generator in enumerate(node.generators):
            if index:
                source = self._eval(generator.iter)
            nonempty = nonempty and containers.nonempty(source)
            self._bind(generator.target, containers.element_of(source))
            for condition in generator.ifs:
                nonempty = nonempty and containers.constant_truth(self._eval(condition)) is True
        return nonempty

    def _dict_comprehension(self, node: nodes.DictComp) -> Value:
        """`{k: v for x in items}` over a literal list or dict without `if`: the dict of each
        entry in turn, as a literal of them (`{type(m).__name__: m for m in models}` holds each
        model). Over another sequence, a dict of what its value is for the elements the
        sequence may hold (`{f"opt_{i}": o.state_dict() for i, o in enumerate(optimizers)}`:
        the state dict of each optimizer the list may hold), its keys not known, and empty
        where the sequence may produce none."""
        first = node.generators[0]
        source = self._eval(first.iter)
        order = containers.in_order(source) if len(node.generators) == 1 and not first.ifs else ()
        if not order:
            nonempty = self._generators(node, source)
            self._eval(node.key)
            made = Container((self._eval(node.value),))
            return made if nonempty else either([made, Container((), exact=True)])
        items, keys = [], []
        for item in order:
            self._bind(first.target, item)
            keys.append(self._eval(node.key))
            items.append(self._eval(node.value))
        return containers.dict_of(tuple((key.value if isinstance(key, Constant) else UNNAMED, value) for key, value in zip(keys, items)))

    def _literal(self, node: Union[nodes.List, nodes.Tuple, nodes.Set]) -> Value:
        """A list, tuple or set literal: its items in order, those of a literal it unpacks
        (`[*blocks, head]` with `blocks` a literal list) among them; the elements of another
        sequence it unpacks one item that may stand for several or none. Exact, for `len` and
        loops, where each item is one entry (a set may merge equal ones)."""
        items: List[Value] = []
        exact = not isinstance(node, nodes.Set)
        for element in node.elts:
            if not isinstance(element, nodes.Starred):
                items.append(self._eval(element))
                continue
            unpacked = self._eval(element.value)
            if isinstance(unpacked, Container) and unpacked.exact and unpacked.keys is None:
                items.extend(unpacked.items)
            else:
                items.append(containers.element_of(unpacked))
                exact = False
        return Container(tuple(items), exact=exact)

    def _dict(self, node: nodes.Dict) -> Value:
        """A dict literal (`containers.dict_of`): the keys that are constants (literals, names
        bound to one) named; a `**` of a dict adds its entries, of another value entries whose
        keys are not known, standing for what it holds (a state dict's tensors)."""
        entries: List[Tuple[object, Value]] = []
        for key, val in node.items:
            named = None if isinstance(key, nodes.DictUnpack) else self._eval(key)  # the key first, as Python does
            value = self._eval(val)
            if named is not None:
                entries.append((named.value if isinstance(named, Constant) else UNNAMED, value))
            elif isinstance(value, Container) and value.keys is not None:
                entries.extend(zip(value.keys, value.items))
            else:
                entries.append((UNNAMED, value))
        return containers.dict_of(tuple(entries))

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
        if isinstance(binding, nodes.AssignName) and module_globals.declared_global(binding):
            scope = binding.root()  # the last binding is a function's `global NAME; NAME = ...`: still the module's global
        if isinstance(binding, nodes.AssignName) and isinstance(scope, nodes.Module):
            if isinstance(binding.parent, nodes.Assign) and _is_shard_partial(binding.parent.value, self):
                return ShardFunction()
            literal = self._module_literal(binding)
            if literal is not None:
                return literal
            own = global_root(scope_key(scope), node.name)
            return self.attr_env.get((own, ()), Obj(own))  # what a function stored in it (`_rebind_global`), if any
        if isinstance(binding, nodes.AssignName) and isinstance(binding.parent, nodes.Assign):
            if _is_shard_partial(binding.parent.value, self):
                return ShardFunction()
        if isinstance(binding, nodes.FunctionDef):
            return self._function_value(binding)
        called = isinstance(node.parent, nodes.Call) and node.parent.func is node
        if isinstance(binding, nodes.ImportFrom):
            imported = self._imported_global(node)
            if imported is not None:
                return imported
            literal = self._imported_constant(self.qualified_name(node)) if not called else None
            if literal is not None:
                return literal
            if not called:
                # a function of another module of the tree handed on as a value (a call resolves by name)
                qname = self.qualified_name(node)
                if isinstance(self.project.callable_for_flow(qname), (nodes.FunctionDef, Deferred)):
                    return Partial(qname, (), ())
        if isinstance(binding, (nodes.ImportFrom, nodes.ClassDef)) and not called:
            return self._class_value(node)
        return UNKNOWN

    def _module_literal(self, binding: nodes.AssignName) -> Optional[Value]:
        """What a global that its module binds once to a literal no code changes holds: a
        constant or a sequence of constants (`named_constants`), or a registry of classes or
        functions (`module_globals.registry`)."""
        found = named_constants.global_constant(self.project, binding)
        return found if found is not None else registry(binding, self._registered, self._registrations(binding))

    def _registrations(self, binding: nodes.AssignName) -> Tuple[registrations.Registration, ...]:
        """The classes decorators register into the global bound at `binding`, where it is bound
        to what may be a dict (a literal, or an object built with no arguments)."""
        if not isinstance(assigned_literal(binding), (nodes.Dict, nodes.Call)):
            return ()
        return registrations.registered_in(self.project, f"{binding.root().name}.{binding.name}", (binding.root().name, binding.name))

    def _item_deferred(self, held: Union[nodes.Name, nodes.Attribute]) -> Optional[Deferred]:
        """Where an item of the global read at `held` is called (`MODEL_REGISTRY[name](cfg)`),
        the module not entered yet whose code that runs: the global's own module, or the module
        of a class its dict literal names (`{"olmo": Olmo}`, `Olmo` imported from another), so
        that the call demands it and the walk resolves the registry once it is entered."""
        qname = self.qualified_name(held)
        found = self.project.callable_for_flow(qname)
        if isinstance(found, Deferred):
            return found
        own = self.project.binding(held) if isinstance(held, nodes.Name) else None  # a global of this module, bound to a call
        binding = own if isinstance(own, nodes.AssignName) and isinstance(own.scope(), nodes.Module) else self.project.global_binding(qname)
        for _, item in (registry_entries(binding, self._registrations(binding)) if binding is not None else None) or ():
            found = self.project.callable_for_flow(self._entry_name(item))
            if isinstance(found, Deferred):
                return found
        return None

    def _result_called(self, func_value: Obj) -> Optional[Deferred]:
        """A call of what a call into a module not entered returned (`train_step =
        make_train_step(cfg)`, then `train_step(model, batch)`): that module's code runs, a
        deferred call into it like any other (entered where what it receives may hold shards).
        Where the module picks a class or function from a registry that decorators fill
        (`registrations`: `engine_cls = EngineRegistry.get_engine_cls(backend="fsdp2")`, then
        `engine_cls(dim=8)`), its code, which no walk knows yet, decides what the object built
        does: the call demands the module (only then: torchtitan 12.8 -> 14.6 CPU s when any
        was)."""
        module = self.deferred_module(self.canonical(func_value))
        if module is None:
            return None
        if registrations.fills_module(self.project, module):
            self.project.demand({module})
            return Deferred(module)
        return Deferred(module, returned=True)

    def _registered(self, node: Union[nodes.Name, nodes.Attribute, nodes.ClassDef]) -> Optional[Value]:
        """What an entry of a registry names (a registered class, or the name of one), where the
        walk can call it: a class of the tree (or torch's), or a function of a module of the tree
        entered already (one not entered yet is none until it is: the call of the entry demands
        it, `_item_deferred`)."""
        qname = self._entry_name(node)
        if qname and self._class_named(qname):
            return ClassRef(qname)
        return Partial(qname, (), ()) if qname and isinstance(self.project.callable_for_flow(qname), nodes.FunctionDef) else None

    def _entry_name(self, node: Union[nodes.Name, nodes.Attribute, nodes.ClassDef]) -> Optional[str]:
        return self.project.class_qname(node) if isinstance(node, nodes.ClassDef) else self.qualified_name(node)

    def _class_value(self, node: Union[nodes.Name, nodes.Attribute]) -> Value:
        """A class handed on as a value (`param_class = QFSDPParam if quantized else FSDPParam`):
        what calling the value builds is then known, for a class of the tree and for torch's
        `FSDPParam` (`_builds_fsdp_param`); other values stay unknown."""
        qname = self.qualified_name(node)
        return ClassRef(qname) if qname and self._class_named(qname) else UNKNOWN

    def _class_named(self, qname: str) -> bool:
        """Whether the walk knows what calling the class `qname` builds (`_class_value`)."""
        return qname in known_apis.FSDP_PARAM_CLASSES or class_values.class_named(self.project, qname) is not None or bool(self._optimizer_named(qname))

    def _optimizer_named(self, qname: Optional[str]) -> Optional[str]:
        """The class name of the optimizer `qname` names (torch's, one the configuration
        declares, or a class of the tree deriving from torch's), else None."""
        return known_apis.optimizer_class(qname) or self.project.apis.optimizer(qname) or class_values.optimizer_class(self.project, qname)

    def _imported_global(self, node: Union[nodes.Name, nodes.Attribute]) -> Optional[Obj]:
        """A global of another module of the tree, read by import (`from utils import MODEL`,
        `utils.MODEL`), that its top level may have left holding shards: the global, with the facts
        of every global of that module as that top level left them, known from the start of this
        walk (the import returned after it). Other imported values stay unknown, as before: an
        object there would only split the contexts of the calls it is passed to."""
        found = self.project.imported_global(self.qualified_name(node))
        if found is None:
            return None
        root, facts = found
        self.deferred |= facts.deferred  # what the top level could not enter may change them
        if not facts.under(root):
            return None
        if root[0] not in self._imported:
            self._imported.add(root[0])
            for path, attrs in sorted(facts.sharded):
                self._inherit_global(path, attrs)
        return Obj(root)

    def _imported_constant(self, qname: Optional[str]) -> Optional[Value]:
        """`_module_literal` of a global of another module, read by import (`from utils import
        MODEL_KEY`, `models.MODEL_REGISTRY`). One of a module of the tree the flows do not enter
        yet is read once they do: the walk depends on that module (`deferred`), as a call into it
        would, and is walked again then."""
        found = self.project.callable_for_flow(qname)
        if isinstance(found, Deferred):
            self.deferred.add(found.module)
            return None
        binding = self.project.global_binding(qname)
        return self._module_literal(binding) if binding is not None else None

    def _function_value(self, func: nodes.FunctionDef) -> Partial:
        """A function of the tree as a value: its partial with nothing bound but, for a closure,
        the values its free variables have here (`fsdp_lint.analysis.closures`)."""
        captured = tuple((name, self.env[name]) for name in free_variables(func, self.project.binding) if name in self.env)
        return Partial(func.qname(), (), captured)

    def _attribute(self, node: nodes.Attribute) -> Value:
        base = self._eval(node.expr)
        if base is UNKNOWN and _names_imported_module(node.expr, self.project.binding):
            imported = self._imported_global(node)  # `utils.MODEL`
            if imported is not None:
                return imported
            qname = self.qualified_name(node)
            called = isinstance(node.parent, nodes.Call) and node.parent.func is node
            literal = self._imported_constant(qname) if not called else None
            if literal is not None:
                return literal
            if not called and self._optimizer_named(qname):
                return ClassRef(qname)  # `optimizer_cls=torch.optim.AdamW`, handed on
        return mapped_options(base, lambda option: self._attribute_of(option, node.attrname, node))

    def _attribute_of(self, base: Value, attr: str, node: Optional[nodes.Attribute] = None, depth: int = 0) -> Value:
        if attr == "param_groups" and isinstance(base, (Obj, Optimizer)):
            return ParamGroups(base)
        if isinstance(base, Obj):
            key = (base.root, base.attrs + (attr,))
            if key in self.attr_env:
                return self.attr_env[key]
            if attr == "forward":
                return BoundMethod(base, "forward")
            if attr == known_apis.COMPILED_ORIGINAL and self._compiled(base):
                return base
            cls = self._class_of(base)
            getter = class_values.property_getter(self.project, cls, attr) if node is not None and cls is not None else None
            if getter is not None and getter is not self.scope and depth < 4 and any(
                (base.root, base.attrs + (name,)) in self.attr_env for name in class_values.self_reads(self.project, getter)
            ):
                # a property over what the walk knows of the object: its getter runs on it (one
                # that returns an attribute of `self` is that attribute, read here)
                chain = class_values.returned_attribute(getter)
                if chain is not None:
                    value: Value = base
                    for name in chain:
                        value = either([self._attribute_of(o, name, node, depth + 1) for o in options_of(value)])
                    return value
                value = self._apply_summary(node, getter, base, [], {})
                if not isinstance(value, Fresh):
                    return either([self.canonical(o) if isinstance(o, Obj) else o for o in options_of(value)])
            return base.child(attr)
        if isinstance(base, ClassRef):  # `Utils.MODEL_KEY`
            cls = class_values.class_named(self.project, base.qname)
            found = named_constants.class_constant(self.project, cls, attr) if cls is not None else None
            if found is None and cls is not None:
                found = self._class_registry(cls, attr)
            return UNKNOWN if found is None else found
        return UNKNOWN

    def _class_registry(self, cls: nodes.ClassDef, attr: str) -> Optional[Value]:
        """`EngineRegistry._engines` (read as `cls._engines` in a classmethod): a dict its class
        binds once in its body, into which decorators register classes
        (`fsdp_lint.analysis.registrations`), and which no code of its class changes otherwise:
        the registry of those classes (`module_globals.registry`)."""
        bindings = cls.locals.get(attr, ())
        if len(bindings) != 1 or not isinstance(bindings[0], nodes.AssignName) or bindings[0].statement().parent is not cls:
            return None
        owner = (cls.root().name, cls.name) if isinstance(cls.parent, nodes.Module) else None
        decorated = registrations.registered_in(self.project, f"{self.project.class_qname(cls)}.{attr}", owner)
        if not decorated or registrations.changed_in_class(cls, attr, decorated):
            return None
        return registry_of(assigned_literal(bindings[0]), self._registered, decorated)

    def _is_none(self, value: Value) -> Optional[bool]:
        """Whether a value is None: True when every value it may be is the constant, False when
        each is an object the walk knows was built (of a known class) or a value no None can be
        (a full state dict and what is taken out of it: a dict, keys, tensors; `get` may give
        its default instead), None when not known (a parameter, an attribute nothing here set)."""
        answers = set()
        for option in options_of(value):
            if isinstance(option, Constant):
                answers.add(option.value is None)
            elif isinstance(option, Obj):
                answers.add(False if option.cls or not option.attrs and (option.root in self.classes or option.root in self._not_none) else None)
            else:
                answers.add(False if isinstance(option, (Optimizer, Container, Params, ParamGroups, StateDict, *WHOLE_STATES, Options, ShardFunction)) else None)
        return answers.pop() if len(answers) == 1 else None

    def _object_truth(self, value: Value) -> Optional[bool]:
        """The truth of a tested value that is objects (`if models:` with a module passed): true
        where each is a module known true (`_plain`: a calling context's plain module, a container
        built with children) or of a known class whose objects are all true, and not compiled
        (`torch.compile`'s wrapper has a length only where the module has); None otherwise."""
        for option in options_of(value):
            if not isinstance(option, Obj) or self._compiled(option):
                return None
            if not option.attrs and option.root in self._plain:
                continue
            klass = self._class_of(option)
            qname = option.cls or (self.classes.get(option.root) if not option.attrs else None)
            if not (class_values.always_true(self.project, klass) if klass is not None else qname and known_apis.module_always_true(qname)):
                return None
        return True

    def _is_plain(self, obj: Obj) -> bool:
        """Whether `obj` is a module known plain (`_plain`: a parameter a widened context says is
        a module of a plain class, `class_values.plain_module`), its own class not known here."""
        return not obj.attrs and not obj.cls and obj.root in self._plain and obj.root not in self.classes

    def _class_of(self, obj: Obj) -> Optional[nodes.ClassDef]:
        """The class of the tree an object was built from, where known (the class whose method is
        walked, for `self`)."""
        qname = obj.cls or (self.classes.get(obj.root) if not obj.attrs else None)
        if qname:
            return class_values.class_named(self.project, qname)
        if obj.root == self.self_root and not obj.attrs:
            return self.self_class
        return None

    def _call(self, node: nodes.Call) -> Value:
        func_value = self._eval(node.func)
        args = [self._chosen(arg, self._materialise(self._eval(arg), arg)) for arg in node.args]
        keywords = {kw.arg: self._chosen(kw.value, self._materialise(self._eval(kw.value), kw.value)) for kw in node.keywords or []}
        if self.listener is not None:
            self.listener.on_call(node, self)
        what = collective(node, self)
        if what is not None:
            self._issued(node, what, node)
        result = self._apply_call(node, func_value, args, keywords)
        if isinstance(result, (Unknown, Fresh)) and self._builds_rank_name(node, func_value):  # what unknown code returns
            result = RANK_NAMED
        self._given_lists(node)
        passed = [o for value in args + list(keywords.values()) for o in contained(value, Optimizer)]
        if passed:
            seq = self._tick()
            self.handoffs.extend((Point(seq, self.path), syntax.callee_name(node.func), o) for o in passed)
        return result

    def parameter_rank(self, name: nodes.Name) -> Optional[bool]:
        """Whether a parameter of the walked function, read in a test, holds a rank, from where
        its value came: not where the calling context gave it constants, the same on every rank
        (a mode flag its callers pass as literals, `rank0=True`, tested beside what the walk
        does not know: `if rank0 and os.path.isdir(path):`). None, and its name decides, where
        the value is not known: a context hands a callee constants only, so a caller's
        `dist.get_rank()` and a caller outside the tree (a launcher's `main(rank, world_size)`)
        look alike here."""
        binding = self.project.binding(name)
        if not (isinstance(binding, nodes.AssignName) and isinstance(binding.parent, nodes.Arguments) and binding.scope() is self.scope):
            return None
        return False if all(isinstance(option, Constant) for option in options_of(self.values.get(name, UNKNOWN))) else None

    def _given_lists(self, node: nodes.Call) -> None:
        """The lists bound to names that a call hands to code other than Python's builtins and
        torch's, which may append to them (`add_optimizers(optimizers, model)`): what the walk
        of a callee does to them is not brought back, so their items are no longer exact."""
        given = [arg.value if isinstance(arg, nodes.Starred) else arg for arg in list(node.args) + [kw.value for kw in node.keywords or []]]
        names = [arg.name for arg in given if isinstance(arg, nodes.Name) and isinstance(self.env.get(arg.name), (Container, Either))]
        if not names:
            return
        func = node.func
        if isinstance(func, nodes.Name) and func.name in _BUILTINS and _is_builtin(self.project.binding(func)) or (self.qualified_name(func) or "").startswith("torch."):
            return
        for name in names:
            self.env[name] = containers.given_away(self.env[name])

    def _issued(self, node: nodes.NodeNG, what: str, at: nodes.Call) -> None:
        """A collective issued at `node` (itself, or a call that runs `at`), with who gets here,
        and whether every run of the walk that does its work does (`Collective.every_run`): no
        rank test on the way, and no branch outcome but those by which a pass of a loop around
        it gets on to its work (`_pass_goes_on`: past `if batch_idx >= num_batches: break`), or
        a later pass's. A run that no pass gets past skipped the work the loop is there for, as a
        run over an empty loader does: every run that does that work communicates."""
        test = rank_only_branch(self)
        passes = self._pass_outcomes - self._loops[0][0] if self._loops else frozenset()
        self.collectives.append(Collective(node, what, at, test, every_run=test is None and paths.within(self.path, passes)))

    def _chosen(self, expr: nodes.NodeNG, value: Value) -> Value:
        """An argument that is a name bound to several objects, each option on the runs that
        choose it (`paths.chosen`): what the callee finds of each (`weights_are_tied(embed, head)`
        true where `head` is the one tied to `embed`) holds where a later use of the same name
        (`fully_shard(head)`) is that one too. Two objects one attribute held (`self.model`, and
        the DDP wrapper `self.model = DDP(self.model)` stored back into it) are named alike, and
        told apart by their classes."""
        if not isinstance(value, Either) or sum(isinstance(o, Obj) for o in value.options) < 2:
            return value
        if all(paths.choices(guard) for option, guard in guarded_options(value) if isinstance(option, Obj)):
            return value  # chosen already, where it was passed to this walk (or to an earlier call)
        named = [(self.canonical(option).root, self.canonical(option).attrs) if isinstance(option, Obj) else None for option in value.options]
        choices = []
        for index, (option, guard) in enumerate(guarded_options(value)):
            key: Tuple[object, ...] = (None, index)
            if isinstance(option, Obj):
                found = self.canonical(option)
                key = (found.root, found.attrs)
                if named.count(key) > 1:
                    key = (*key, option.cls)
            choice = paths.chosen(self.key, expr, key, lambda name: self._versions.get(name, 0), self.project.texts)
            if choice is None:
                return value
            choices.append((option, guard | {choice}))
        return guarded(choices)

    def _apply_call(
        self, node: nodes.Call, func_value: Value, args: List[Value], keywords: Dict[Optional[str], Value], by_receiver: bool = True,
    ) -> Value:
        """The effect and value of a call; `by_receiver=False` for a method of a receiver that is
        no object the walk knows (one option of several): the call is resolved by its name alone."""
        func = node.func
        qname = self.qualified_name(func)
        read = self._environment_read(node, func)
        if read is not None:
            return read
        if qname in known_apis.WORLD_SIZE_GETTERS and not args and not keywords:
            return WORLD_SIZE
        if qname in known_apis.DISTRIBUTED_RUN_TESTS:
            return constant(True)
        first = args[0] if args else keywords.get(known_apis.SHARDED_MODULE_PARAMETER, UNKNOWN)
        if self.shards(qname) or isinstance(func_value, ShardFunction):
            seq = self._tick()
            targets = []
            for option, guard in guarded_options(self._materialise(first, "<module>")):
                for target in objects_in(option):
                    target = self.canonical(target)
                    targets.append(target)
                    self.events.append(ShardEvent(target, node, seq, path=_made_on(self.path | guard, target)))
            self._made_fsdp_modules(targets)
            return first
        if qname in PARTIAL and args:
            if self.shards(self.qualified_name(node.args[0])):
                return ShardFunction()
            if isinstance(args[0], Partial):  # of a function of the tree, a closure or a partial
                named = tuple((k, v) for k, v in keywords.items() if k is not None)
                return Partial(args[0].qname, args[0].args + tuple(args[1:]), args[0].keywords + named)
            if isinstance(args[0], ClassRef) and self._optimizer_named(args[0].qname):
                # `partial(torch.optim.AdamW, lr=...)`: calling it builds the optimizer
                return Partial(args[0].qname, tuple(args[1:]), tuple((k, v) for k, v in keywords.items() if k is not None))
            target_name = self.qualified_name(node.args[0])
            if isinstance(self.project.callable_for_flow(target_name), (nodes.FunctionDef, Deferred)):
                # a function of the tree, whose module may not be entered yet: resolved when called
                named = tuple((k, v) for k, v in keywords.items() if k is not None)
                return Partial(target_name, tuple(args[1:]), named)
        if isinstance(func_value, Partial):
            called = self._call_partial(node, func_value, args, keywords)
            if called is not None:
                return called
        if isinstance(func_value, Either) and all(isinstance(option, Partial) for option in func_value.options):
            # one of several functions (`models_parallelize_fns[name](model, mesh)` of a registry
            # of them): each runs on the runs that pick it
            return self._alternatives(node, [
                lambda option=option: self._apply_call(node, option, args, keywords) for option in func_value.options
            ], [guard for _, guard in guarded_options(func_value)])
        spawned = known_apis.spawned_call(qname, args, keywords)
        if spawned is not None and isinstance(spawned[0], Partial):
            # each process runs `fn(rank, *args)`: a call of it here, with a rank not known
            function, given = spawned
            spread = list(given.items) if isinstance(given, Container) and given.keys is None else None
            if spread is not None or given is None:
                self._call_partial(node, function, [UNKNOWN] + (spread or []), {})
                return UNKNOWN
        if self._builds_fsdp_param(qname, func_value):
            self._reregistered(first, node)
        built = self._optimizer_named(func_value.qname) if isinstance(func_value, (ClassRef, Partial)) else None
        if built is not None and isinstance(func_value, Partial):
            args, keywords = list(func_value.args) + args, {**dict(func_value.keywords), **keywords}
        if isinstance(func_value, ClassRef) and built is None:
            return self._construct(node, func_value.qname, args, keywords)
        modules = [(self.canonical(o), guard) for o, guard in guarded_options(func_value) if isinstance(o, Obj)]
        modules = [(module, guard) for module, guard in modules if self._is_module_call(module)]
        if modules:  # one event (what follows comes after it): a forward of each module it may be, on the runs that give it
            seq = self._tick()
            self.forwards.extend((Point(seq, self.path | guard), module) for module, guard in modules)
            ran = self._module_forward(node, func_value, modules, args, keywords)
            if ran is not None:
                return ran
        if known_apis.never_returns(qname, func, isinstance(func, nodes.Name) and self.project.binding(func) is None):
            # `sys.exit()`, `os._exit(0)`: as after a `raise`, the rest of the block runs on no run
            self._raising = self._raising or syntax.evaluated_whenever_statement_runs(node)
        if known_apis.is_state_dict_options(qname):
            return Options(known_apis.full_state_dict(node))
        if qname in known_apis.PLAIN_LOADERS:
            # a file named by the rank holds that rank's own tensors, saved from the same layout
            return UNKNOWN if any(self.names_rank_file(arg) for arg in node.args[:1]) else FileState(qname)
        if known_apis.dcp_function(qname) in ("load", "load_state_dict"):
            self._dcp_loaded(node, args[0] if args else keywords.get("state_dict", UNKNOWN))
        if isinstance(func, nodes.Attribute) and func.attrname in ("clear", "add_param_group"):
            self._rebuilding_call(func, args)
        if isinstance(func, nodes.Attribute) and by_receiver:
            self._raising = self._raising or self._raises(node, func)
            delegated = self._super_call(node, func, args, keywords)
            if delegated is not None:
                return delegated
            receivers = options_of(self.value(func.expr))
            # (asked of every method call: no generator) a list or dict the walk built; where it
            # is one of several values and the others are objects (`modules = [modules]` on one
            # arm), a method no list changes itself with runs on each option (`_alternatives`)
            if Container in map(type, receivers) and (
                func.attrname in _CONTAINER_CHANGES or not any(isinstance(r, (Obj, Optimizer)) for r in receivers)
            ):
                return self._container_method(func, args)
            if all(isinstance(r, WHOLE_STATES) for r in receivers):
                whole = either(list(receivers))
                if func.attrname == "get":  # an entry, or the default where the key is missing
                    return either([whole, args[1] if len(args) > 1 else Constant(None)])
                return whole  # `items()`, `values()`, `cpu()` of a full state dict (or a file's): what it holds
            if receivers and func.attrname in ("keys", "values", "items") and all(isinstance(r, StateDict) for r in receivers):
                return containers.STATE_DICT_ENTRIES
            if len(receivers) == 1 and isinstance(receivers[0], (Obj, Optimizer)):
                return self._method_call(node, func.attrname, receivers[0], args, keywords)
            if len(receivers) == 1 and isinstance(receivers[0], Fresh) and receivers[0].cls and func.attrname in known_apis.SELF_RETURNING_METHODS:
                return receivers[0]  # `nn.Sequential(...).to(device)`: the module just built, of its class
            if func.attrname in known_apis.TENSOR_COPIES and receivers and all(
                isinstance(r, Params) or isinstance(r, StateDict) and r.copies for r in receivers
            ):
                # a parameter (or a copy of one), detached, cloned or moved: its owner's values
                return either([StateDict(r.owner, copies=True) if isinstance(r, Params) else r for r in receivers])
            if any(isinstance(r, (Obj, Optimizer)) for r in receivers):
                return self._alternatives(node, [
                    (lambda r=r: self._method_call(node, func.attrname, r, args, keywords)) if isinstance(r, (Obj, Optimizer))
                    else (lambda r=r: containers.view(r, func.attrname, args)) if isinstance(r, Container)
                    else (lambda: self._apply_call(node, func_value, args, keywords, by_receiver=False))
                    for r in receivers
                ], [guard for _, guard in guarded_options(self._chosen(func.expr, self.value(func.expr)))])  # each on the runs that choose it
        optimizer = self._optimizer_named(qname) or built  # by name, or a class handed on (`optimizer_cls(params)`)
        if optimizer is not None:
            params = args[0] if args else keywords.get("params", UNKNOWN)
            found = self._optimizer_over(params, node, optimizer)
            return self._optimizer_built(found, containers.params_taken(params)) if found is not None else UNKNOWN
        getter = known_apis.state_dict_getter(qname)
        if getter is not None:
            return self._state_dict_getter(node, getter, args, keywords)
        if qname in known_apis.IDENTITY_FUNCTIONS:
            for obj in options_of(first):
                if isinstance(obj, Obj):
                    found = self.canonical(obj)
                    self.compiled.add((found.root, found.attrs))
            return first
        if qname in known_apis.LAST_ARGUMENT_FUNCTIONS and args:
            return args[-1]
        if qname in known_apis.FIRST_ARGUMENT_FUNCTIONS and args:
            self._escape(args, keywords)  # what it does to the module is torch's code, not followed
            return args[0]
        if qname == "copy.deepcopy":
            return Fresh(first.cls if isinstance(first, Obj) else None)
        if isinstance(func, nodes.Name) and func.name in _BUILTINS and _is_builtin(self.project.binding(func)):
            if func.name == "isinstance" and len(node.args) == 2:
                return self._isinstance(args[0], node.args[1], node)
            if func.name in ("getattr", "setattr", "hasattr") and len(node.args) >= 2 and not keywords:
                name = args[1]  # a literal, or a name bound to one (`for name in ("denoiser", "vae"):`)
                if isinstance(name, Constant) and isinstance(name.value, str):
                    return self._named_attribute(node, func.name, name.value, args)
            if func.name == "getattr" and args and isinstance(args[0], Obj):
                return args[0].child(self._member(node))  # an attribute named at run time: some module in it
            found = known_apis.lookup_class(self.qualified_name(node.args[0])) if func.name == "getattr" and node.args else None
            if found is not None:
                return ClassRef(found)  # some class of a library module, named at run time
            result = containers.builtin_call(func.name, args, keywords)
            if func.name in _COLLECTING_BUILTINS and isinstance(result, Params):
                return self._collected(result, node)
            return result
        target = self.project.callable_for_flow(qname)
        if target is None and isinstance(func, nodes.Subscript) and isinstance(func.value, (nodes.Name, nodes.Attribute)):
            target = self._item_deferred(func.value)
        if target is None and isinstance(func_value, Obj):
            target = self._result_called(func_value)
        if isinstance(target, Deferred) and target.returned:
            self._returned_called(node, target.module, args, keywords)
        elif isinstance(target, Deferred):
            return self._defer(node, target.module, None, args, keywords)
        if isinstance(target, nodes.FunctionDef):
            return self._apply_summary(node, target, None, args, keywords)
        if isinstance(target, nodes.ClassDef):
            return self._construct(node, qname, args, keywords)
        if qname and qname.startswith(known_apis.LEAF_MODULE_PREFIX) and qname.rsplit(".", 1)[-1][:1].isupper():
            built = Fresh(qname, known_apis.built_true(node, qname))
            return self._module_container(node, qname, args, built) if qname in known_apis.BLOCK_CONTAINERS else built
        if qname in known_apis.FSDP1_WRAPPERS:  # a new module, the FSDP1 unit around its argument
            self._escape(args, keywords)
            return Fresh(qname)
        if isinstance(func, nodes.Attribute) and func.attrname in known_apis.PRETRAINED_FACTORIES and qname and qname.startswith("transformers."):
            return Fresh("transformers.PreTrainedModel")
        self._escape(args, keywords, initialises=qname not in known_apis.VALUE_KEEPING_WRAPPERS)
        if known_apis.holds_no_module(qname):
            return Fresh(qname)
        torch_code = (qname or "").startswith("torch.")  # torch's optimizers are its classes
        candidate = self._optimizer_over(args[0], node, syntax.callee_name(func)) if args and not torch_code else None
        if candidate is not None:
            # Unknown code given parameters: an optimizer if the code later steps it.
            self._candidates[id(node)] = OptimizerBuilt(self._tick(), candidate, self.path, containers.params_taken(args[0]))
            return candidate
        return Fresh(None)

    def _module_container(self, node: nodes.Call, qname: str, args: List[Value], built: Fresh) -> Value:
        """`nn.ModuleList(stages)`: a new container whose items are the modules given
        (`containers.held_modules`), as `self.models[name] = model` stores one (`stages` sharded
        by the caller are sharded items of the list), where they are modules the code already
        holds (named, not built in the call: `ModuleList([Block() for _ in range(n)])` makes its
        items there, which the container's path `layers[*]` names as well as anything)."""
        if not node.args or not all(isinstance(arg, (nodes.Name, nodes.Attribute, nodes.Subscript)) for arg in node.args):
            return built
        held = containers.held_modules(qname == known_apis.SEQUENTIAL, args)
        if not any(isinstance(option, Obj) for option in options_of(held)):
            return built
        container = self._materialise(built, syntax.assigned_name(node) or node)
        self._set_attribute(container, WILDCARD, held, node, None, None)
        return container

    def _call_partial(self, node: nodes.Call, partial: Partial, args: List[Value], keywords: Dict[Optional[str], Value]) -> Optional[Value]:
        """A call of a function of the tree (or a partial of one) with the arguments it binds
        before those given here; None where its target is not the tree's."""
        target = self.project.callable_for_flow(partial.qname)
        merged = dict(partial.keywords)
        merged.update(keywords)
        if isinstance(target, Deferred):
            return self._defer(node, target.module, None, list(partial.args) + args, merged)
        if isinstance(target, nodes.FunctionDef):
            return self._apply_summary(node, target, None, list(partial.args) + args, merged)
        return None

    def _super_call(self, node: nodes.Call, func: nodes.Attribute, args: List[Value], keywords: Dict[Optional[str], Value]) -> Optional[Value]:
        """`super().method(...)` (or `super(Cls, obj).method(...)`): the method of a base of the
        tree that comes after the class in the object's hierarchy runs on the same object, as
        `obj.method(...)` would run an override (None where it is no such call, or the method
        is not one of the tree's: library code, as before)."""
        found = self._super_of(func.expr)
        if found is None:
            return None
        after, receiver = found
        target = self.project.resolve_method(receiver, self.self_root, func.attrname, self.self_class, after=after)
        if isinstance(target, nodes.FunctionDef):
            return self._apply_summary(node, target, receiver, args, keywords)
        if isinstance(target, Deferred):
            return self._defer(node, target.module, receiver, args, keywords)
        return None

    def _super_of(self, call: nodes.NodeNG) -> Optional[Tuple[nodes.ClassDef, Obj]]:
        """`super()` (or `super(Cls, obj)`): the class the method search starts after, and the
        object the method runs on; None where `call` is no such call or they are not known."""
        if not (isinstance(call, nodes.Call) and isinstance(call.func, nodes.Name) and call.func.name == "super"):
            return None
        if not _is_builtin(self.project.binding(call.func)) or call.keywords:
            return None
        if not call.args and self.self_root is not None and self.self_class is not None:
            after, receiver = self.self_class, self.env.get(syntax.first_param(self.scope) or "")
        elif len(call.args) == 2:
            named = self.project.callable_for_flow(self.qualified_name(call.args[0]))
            after, receiver = (named if isinstance(named, nodes.ClassDef) else None), self.value(call.args[1])
        else:
            return None
        return (after, receiver) if after is not None and isinstance(receiver, Obj) else None

    def _container_method(self, func: nodes.Attribute, args: List[Value]) -> Value:
        """A method of a dict or list the walk built: a view of its entries (`models.items()`,
        `.values()`, `.keys()`, `.get("dit")`), or the items a list gains (`params.append(p)`,
        `params.extend(...)`, exact where the run passes there once; `insert`, at a place the
        list's order does not keep), kept where the list is bound."""
        receiver = self.value(func.expr)
        if func.attrname in _GROWTHS:
            added = args[-1] if args else UNKNOWN
            self._store(added)
            once = func.attrname != "insert" and not syntax.may_repeat(func)
            grown = containers.grown(receiver, Container((added,), exact=True) if func.attrname != "extend" else added, once)
            self._rebind_container(func.expr, grown)
            return Constant(None)
        if func.attrname == "pop" and args:  # `config.pop("fsdp", None)`: that entry is gone
            self._rebind_container(func.expr, containers.removed(receiver, args[0]))
        elif func.attrname in _KEY_CHANGES:  # `args.update(...)`: `in` and `len` no longer known
            self._rebind_container(func.expr, containers.loosened(receiver))
        return either([containers.view(option, func.attrname, args) for option in options_of(receiver)])

    def _rebind_container(self, expr: nodes.NodeNG, changed: Value) -> None:
        """Keep a list or dict the walk built, changed in place, where `expr` reads it: a
        variable, an attribute of an object whose value the walk holds, or an entry of such a
        dict under a constant key (`config["denoiser"].pop("fsdp")` changes `config` too)."""
        if isinstance(expr, nodes.Name) and expr.name in self.env:
            self.env[expr.name] = changed
        elif isinstance(expr, nodes.Attribute):
            owner = self.value(expr.expr)
            key = (owner.root, owner.attrs + (expr.attrname,)) if isinstance(owner, Obj) else None
            if key in self.attr_env:
                self.attr_env[key] = changed
                self._attr_version += 1
        elif isinstance(expr, nodes.Subscript) and not isinstance(expr.slice, nodes.Slice):
            outer, key = self.value(expr.value), self.value(expr.slice)
            if isinstance(outer, Container) and outer.keys is not None and isinstance(key, Constant):
                self._rebind_container(expr.value, containers.stored_item(outer, key, changed))

    def _entry(self, owner: Value, key: Value) -> Optional[Value]:
        """`owner[key]` of an object whose entries the walk does not hold as a dict (a
        configuration `yaml.safe_load` returned, a parameter), under a constant string key: the
        entry, the attribute a test of it reads as its flag (`conf["data"]` is `conf.data`,
        `paths.name_chain`), or what a store here or a caller's put there; None for other values
        and keys, and where a store under a key named at run time may have put any entry there
        (any entry, `containers.subscript`)."""
        if not isinstance(owner, Obj) or not isinstance(key, Constant) or not isinstance(key.value, str) or is_wildcard(key.value):
            return None
        entry = owner.child(key.value)
        if (entry.root, entry.attrs) in self.attr_env:
            return self.attr_env[(entry.root, entry.attrs)]
        return None if (owner.root, owner.attrs + (WILDCARD,)) in self.attr_env else entry

    def _entries_of(self, expr: nodes.NodeNG) -> Optional[Obj]:
        """The object whose entries `expr.get(...)`, `expr.pop(...)`, `del expr[...]` and
        `expr[...] = ...` read and change, where the walk holds no dict for it: one object (an
        entry of one, `_entry`); None for a dict or list the walk built, and other values."""
        found = options_of(self.value(expr))
        if len(found) != 1 or not isinstance(found[0], Obj) or any(map(is_wildcard, found[0].attrs)):
            return None
        return self.canonical(found[0])

    def _entry_read(self, owner: Obj, key: str, default: Optional[Value]) -> Value:
        """`owner.get(key[, default])` (also what `owner.pop(key[, default])` returns) of an
        object whose entries the walk does not hold as a dict: the entry is the attribute `key`
        (`paths.name_chain`), the value stored or removed here or by a caller (`_entry_removed`),
        else the bare entry, whose flag a test reads; where it may be missing (`get`, or a
        default given), the default too. A None the walk holds for it may be a removal, which
        gives the default."""
        read = self._attribute_of(owner, key)
        held = (owner.root, owner.attrs + (key,)) in self.attr_env
        if default is None or held and not any(isinstance(o, Constant) and o.value is None for o in options_of(read)):
            return read
        return either([read, default])

    def _entry_removed(self, owner: Obj, key: Value, node: nodes.NodeNG) -> None:
        """`owner.pop(key[, default])` or `del owner[key]` of an object whose entries the walk
        does not hold as a dict: a constant string key's entry is gone, which a later `get` of
        it, here or in a callee, reads as None (a store of None to its flag, `_set_attribute`);
        under a key named at run time, any entry may be (`_entries_changed`)."""
        if isinstance(key, Constant) and isinstance(key.value, str):
            self._set_attribute(owner, key.value, Constant(None), node, None, None)
        else:
            self._entries_changed(owner, node)

    def _entries_changed(self, owner: Obj, node: nodes.NodeNG) -> None:
        """The entries of `owner` changed under keys the walk does not know (`update`,
        `setdefault`, `clear`, a key named at run time): the settings it holds for them (a
        constant, a dict, what a `pop` removed) are no longer known, here or in the caller the
        write reaches. The modules and optimizers held stay: an object that has such a method
        and holds them is no configuration (`ema.update(model)`, `meter.update(loss)`)."""
        for attrs, value in list(self._owned_by(owner.root)):
            if len(attrs) != len(owner.attrs) + 1 or attrs[: len(owner.attrs)] != owner.attrs or is_wildcard(attrs[-1]):
                continue
            if not any(isinstance(option, (Obj, Optimizer)) for option in options_of(value)):
                self._set_attribute(owner, attrs[-1], UNKNOWN, node, None, None)

    def _raised(self) -> bool:
        """Whether the statement just walked raised on every run that got to it (`_raises`): as
        after a `raise`, the rest of its block runs on none of them. Asked once per statement."""
        raised, self._raising = self._raising, False
        return raised

    def _raises(self, node: nodes.Call, func: nodes.Attribute) -> bool:
        """Whether the call raises `AttributeError` on every run of its statement: a method that
        FSDP1 instances have and FSDP2 modules lack (`model.summon_full_params()`, `no_sync()`;
        torch 2.13: `'FSDPSequential' object has no attribute ...`), of a module that `fully_shard`
        made an `FSDPModule` on every run to here, whose class (one of the tree that binds no such
        name, or one of torch's) adds none."""
        if func.attrname not in fsdp1_api.INSTANCE_ATTRIBUTES or not syntax.evaluated_whenever_statement_runs(node):
            return False
        receivers = options_of(self.value(func.expr))
        return all(isinstance(r, Obj) and self._lacks(r, func.attrname) and self.is_fsdp_module(r, node) for r in receivers)

    def _lacks(self, obj: Obj, attr: str) -> bool:
        """Whether the class `obj` was built from is known and binds no `attr`: one of the tree
        none of whose classes binds it, or one of torch's (none of them binds FSDP1's methods)."""
        klass = self._class_of(obj)
        if klass is not None:
            return not class_values.binds_in_tree(self.project, klass, attr)
        qname = obj.cls or self.class_name(obj)
        return bool(qname) and qname.startswith(known_apis.LEAF_MODULE_PREFIX)

    def _rebuilding_call(self, func: nodes.Attribute, args: List[Value]) -> None:
        """`optimizer.param_groups.clear()` (groups added after it hold what they are given), and
        `optimizer.add_param_group({"params": model.parameters(), ...})`: a rebuild, over the
        modules whose parameters the group carries (a group of unknown parameters is none)."""
        receivers = options_of(self.value(func.expr))
        if func.attrname == "clear":
            for groups in receivers:
                if isinstance(groups, ParamGroups):
                    self._rebuilt(groups.optimizer)
            return
        over = containers.param_owners(args[0]) if args else ()
        if over:
            for receiver in receivers:
                self._rebuilt(receiver, tuple(self.canonical(o) for o in over))

    def _named_attribute(self, node: nodes.Call, builtin: str, attr: str, args: List[Value]) -> Value:
        """`setattr(obj, "attr", value)`, `getattr(obj, "attr"[, default])` and `hasattr(obj,
        "attr")` with a constant name: the attribute write or read they are. Without the attribute,
        `getattr` gives its default and `hasattr` False, where the object provably has none: set
        on no path here, of a class of the tree none of whose classes binds it (`never_binds`)."""
        owners = guarded_options(args[0])
        if builtin == "setattr":
            if len(args) == 3:
                chain = paths.attribute_chain(node.args[0])
                self._set_attribute(args[0], attr, args[2], node, node.args[2], f"{chain}.{attr}" if chain else None)
            return UNKNOWN
        answers: List[Tuple[Value, Path]] = []  # each on the runs of the owner it is read of
        if builtin == "hasattr" and attr in known_apis.FSDP_MODULE_METHODS:
            return self._has_fsdp_method(owners, attr, node)
        for owner, guard in owners:
            if isinstance(owner, Constant) and owner.value is None and not attr.startswith("__"):
                answers.append((Constant(False) if builtin == "hasattr" else args[2] if len(args) > 2 else UNKNOWN, guard))
                continue  # None has no attribute of its own: `getattr(None, "weight", None)` is the default
            if not isinstance(owner, Obj):
                answers.append((UNKNOWN, guard))
                continue
            has = True if (owner.root, owner.attrs + (attr,)) in self.attr_env else False if self._never_binds(owner, attr) else None
            if builtin == "hasattr":
                answers.append((UNKNOWN if has is None else Constant(has), guard))
            elif has is False:
                answers.append((args[2] if len(args) > 2 else UNKNOWN, guard))
            else:
                read = self._attribute_of(owner, attr, node)
                answers.append((read if has or len(args) < 3 else either([read, args[2]]), guard))
        return guarded(answers) if answers else UNKNOWN

    def _has_fsdp_method(self, owners: Sequence[Tuple[Value, Path]], attr: str, at: nodes.NodeNG) -> Value:
        """`hasattr(x, attr)` of a method only `FSDPModule` adds: whether x is an `FSDPModule`,
        where its own class (one of the tree) does not define the method."""
        answers: List[Tuple[Value, Path]] = []
        for owner, guard in owners:
            klass = self._class_of(owner) if isinstance(owner, Obj) else None
            if isinstance(owner, Constant) and owner.value is None:
                found: Optional[bool] = False
            elif not isinstance(owner, Obj) or klass is not None and class_values.binds_in_tree(self.project, klass, attr):
                found = None
            else:
                found = self._instance_of(owner, [known_apis.FSDP_MODULE], at)
            answers.append((UNKNOWN if found is None else Constant(found), guard))
        return guarded(answers)

    def _member(self, lookup: nodes.NodeNG) -> str:
        """The attribute of the module that `lookup` finds by a name known only at run time
        (`values.member`): one per lookup of this walk, named with the walk's scope, so that the
        same lookup reached by two calls is two members to the caller (`RootMapper`)."""
        return member(f"{self.key}#{lookup.lineno}:{lookup.col_offset}")

    def _never_binds(self, obj: Obj, attr: str) -> bool:
        """Whether no run to here can have given `obj` the attribute `attr`: an object built here,
        given to no unknown code, of a class of the tree that never binds it."""
        found = self.canonical(obj)
        if not self.is_local(found.root) or found.root in self.escaped:
            return False
        cls = self._class_of(found)
        return cls is not None and class_values.never_binds(self.project, cls, attr)

    def _isinstance(self, value: Value, classes: nodes.NodeNG, at: nodes.NodeNG) -> Value:
        """`isinstance(value, classes)`, decided where it is for every value it may be: None is
        an instance of nothing, an object as its class and sharding say (`_instance_of`)."""
        tested = [self._tested_class(c) for c in (classes.elts if isinstance(classes, nodes.Tuple) else [classes])]
        if not tested or None in tested:
            return UNKNOWN
        each: List[Optional[bool]] = []
        for option in options_of(value):
            if isinstance(option, Constant) and option.value is None:
                each.append(False)
            elif isinstance(option, Gathered) and all(name in known_apis.DTENSOR_CLASSES for name in tested):
                each.append(False)  # what a full state dict holds is gathered: no DTensor
            elif isinstance(option, Params) and all(name in known_apis.DTENSOR_CLASSES for name in tested):
                each.append(self._parameters_are_dtensors(option.owner))  # `any(isinstance(p, DTensor) for p in model.parameters())`
            elif isinstance(option, Obj):
                each.append(self._instance_of(option, tested, at))  # type: ignore[arg-type]
            elif isinstance(option, Container) and option.keys is not None and all(class_values.class_named(self.project, name) for name in tested):
                each.append(False)  # a dict is an instance of no class of the tree
            else:
                each.append(None)
        answers = set(each)
        if len(answers) == 1 and None not in answers:
            return Constant(answers.pop())
        return _described_by_options(value, each)

    def _parameters_are_dtensors(self, owner: Obj) -> Optional[bool]:
        """Whether a parameter of `owner` is a DTensor: each is where `owner`, or a module around
        it, is sharded on every run to here (a unit's parameters are its shards); none is where
        nothing in it is sharded on any run. None otherwise (some of its modules sharded)."""
        if self.sharded_here(owner, must=True) is not None:
            return True
        return False if self.provably_unsharded(owner) else None

    def _tested_class(self, expr: nodes.NodeNG) -> Optional[str]:
        """The qualified name of a class an instance test names: a builtin type by its module
        (`list` is `builtins.list`) where nothing in the module rebinds it."""
        if isinstance(expr, nodes.Name) and expr.name in _BUILTINS and _is_builtin(self.project.binding(expr)):
            return f"builtins.{expr.name}"
        return self.qualified_name(expr)

    def _instance_of(self, obj: Obj, tested: List[str], at: nodes.NodeNG) -> Optional[bool]:
        """Whether `obj` is an instance of one of the classes `tested` at `at`: an `FSDPModule`
        where `fully_shard` made it one (`is_fsdp_module`; an FSDP1 wrapper never is); of another
        class as the class it was built from says (one of the tree, with its bases, or one of
        torch's: `DDP(model)` is a DDP, an `nn.Linear` or a class of the tree deriving from
        `nn.Module` is none), which sharding leaves as it is. A module that `fully_shard` shards
        is taken for no FSDP1 wrapper where its class is not known. None where not settled."""
        qname = obj.cls or (self.classes.get(obj.root) if not obj.attrs else None)
        klass = self._class_of(obj)
        answers = set()
        for name in tested:
            if name in known_apis.FSDP2_MODULES:
                answer = False if qname in known_apis.FSDP1_WRAPPERS else self.is_fsdp_module(obj, at)
            elif name in known_apis.COMPILED_MODULES and self._compiled(obj):
                answer = None  # the module and the wrapper `torch.compile` made of it are one object here
            elif klass is None and not qname and self._is_plain(obj):
                # a module of a plain class: an instance of no builtin type and of none of torch's
                # wrappers, of any other module class maybe (its class is not known here)
                answer = False if name in known_apis.BUILTIN_TYPES or known_apis.torch_wrapper(name) else None
            else:
                answer = class_values.is_instance(self.project, klass, name) if klass is not None else (
                    class_values.outside_instance(self.project, qname, name) if qname else None
                )
                if answer is None and name in known_apis.FSDP1_WRAPPERS and self._shard_target(obj):
                    answer = False
            if answer:
                return True
            answers.add(answer)
        return False if answers == {False} else None

    def _compiled(self, obj: Obj) -> bool:
        found = self.canonical(obj)
        return (found.root, found.attrs) in self.compiled

    def _shard_target(self, obj: Obj) -> bool:
        """Whether `fully_shard` shards the object itself (not a module around or inside it) on
        some path of this walk (one known before it included)."""
        canonical = self.canonical(obj)
        return any(not e.above and (e.target.root, e.target.attrs) == (canonical.root, canonical.attrs) for e in self.events)

    def is_fsdp_module(self, obj: Obj, at: nodes.NodeNG) -> Optional[bool]:
        """Whether `obj` is an `FSDPModule` at `at` (here): `fully_shard` makes the module it is
        given one, and only that module (a module inside a sharded one is not). True where that
        very module was sharded on every run to here; False where no run to here may have sharded
        it and the walk knows what it is (an object of a known class, built here or described by
        the calling context, that no unknown code was given); None otherwise."""
        names = self.names_of(obj)
        may = False
        for event in self._shards_of_module(names):
            if _shards_exactly(event, names) and self._on_every_run(event, at):
                return True
            may = True
        return None if may or not self._known_module(obj) else False

    def _shards_of_module(self, names: List[Obj]) -> Iterator[ShardEvent]:
        """The `fully_shard` calls of the module known by `names` (not of one above it) that a run
        to here may have made: what decides whether it is an `FSDPModule` here."""
        here = self.point()
        for event in self.events:
            target = event.target
            if event.above or not any(len(name.attrs) == len(target.attrs) and path_covers(target, name) for name in names):
                continue
            if self.happens_before(Point(event.seq, event.path), here):
                yield event

    def _known_module(self, obj: Obj) -> bool:
        """Whether every `fully_shard` of `obj` on the way here is one this walk sees: an object
        of a known class, built here or described by the calling context, given to no unknown code."""
        found = self.canonical(obj)
        known = self.is_local(found.root) or found.root in self.known_params
        cls = obj.cls or found.cls or (self.classes.get(found.root) if not found.attrs else None)
        return bool(known and cls) and found.root not in self.escaped

    def _on_every_run(self, event: ShardEvent, at: nodes.NodeNG, assumed: Path = EMPTY) -> bool:
        """Whether every run that reaches `at` (here) made `event` on the way, to its target alone:
        on branch outcomes this point's path has, in no loop, `try` or `match` arm that `at` is
        not in too (`syntax.runs_whenever`), not under a helper's own condition, and not by a call that
        shards one of several objects (`fully_shard(a if c else b)`); an inherited event where
        the caller said so (`ObjectFacts.certain`). With `assumed`: on the runs that also take
        those branch outcomes."""
        target = (event.target.root, event.target.attrs)
        if event.inherited:
            return not event.above and target in self._certain
        if event.guarded or not _conditions(event) <= self.path | assumed:
            return False
        if any(o.seq == event.seq and o.inner == event.inner and (o.target.root, o.target.attrs) != target for o in self.events):
            return False
        return syntax.runs_whenever(event.node, at, self.scope)

    def _is_module_call(self, called: Obj) -> bool:
        """Whether calling `called` runs an object's forward: an object itself, or one an
        attribute holds (`self.model(batch)`: stored there, or sharded, itself or inside), not a
        method (`model.generate(...)`)."""
        return (
            not called.attrs or any(isinstance(o, Obj) for o in options_of(self.attr_env.get((called.root, called.attrs), UNKNOWN)))
            or any(e.target.root == called.root and e.target.attrs[: len(called.attrs)] == called.attrs for e in self.events)
        )  # by name, not `contains`: a wildcard (`model.*` sharded) matches any method

    def _module_forward(
        self, node: nodes.Call, func_value: Value, modules: List[Tuple[Obj, Path]], args: List[Value], keywords: Dict[Optional[str], Value],
    ) -> Optional[Value]:
        """`model(x)` of an object of a class of the tree: `nn.Module.__call__` runs the class's
        `forward` (or the class's own `__call__`) on the object with the arguments, so it is
        walked as `model.forward(x)` would be, with this walk's facts about the object and the
        arguments (a unit known sharded here is sharded in its forward); the hooks around it
        are the forward event recorded before. None where some value called is no such object
        (a module of torch's, or of a class in a module not entered): unknown code, as before."""
        if len(guarded_options(func_value)) != len(modules):
            return None
        targets = [self.project.called_method(module, self.self_root, self.self_class) for module, _ in modules]
        if not all(isinstance(target, nodes.FunctionDef) for target in targets):
            return None
        if len(modules) == 1:
            return self._apply_summary(node, targets[0], modules[0][0], args, keywords)  # type: ignore[arg-type]
        return self._alternatives(node, [
            lambda target=target, module=module: self._apply_summary(node, target, module, args, keywords)
            for target, (module, _) in zip(targets, modules)
        ], [guard for _, guard in modules])

    def _alternatives(self, node: nodes.NodeNG, calls, guards: Optional[List[Path]] = None) -> Value:
        """A call on one of several values (an `Either`): each option runs from the same state,
        on a path of its own (options exclude each other) with the branch outcomes that give it
        (`guards`), and the states are joined after; each result holds on its option's runs."""
        start = self._snapshot()
        ends, results = [], []
        for index, call in enumerate(calls):
            self._restore(start)
            runs = frozenset([(("eq", f"either@{node.lineno}:{node.col_offset}", repr(index)), True)]) | (guards[index] if guards else EMPTY)
            self.path = start.path | runs
            results.append((call(), runs))
            ends.append(self._snapshot())
        self._join(ends)
        return guarded(results)

    def _choice_arguments(
        self, func: nodes.FunctionDef, receiver: Optional[Obj], args: List[Value], keywords: Dict[Optional[str], Value],
    ) -> List[Tuple[Union[int, Optional[str]], Value]]:
        """The arguments that are one of several configurations (`cfg = FSDPConfig(...) if a else
        None if b else ParallelConfig(...)`): every option None or an object of a setting class
        (`Project.is_choice`), or namespaces of options that `func` tests (`_namespaces`), at least two of them.
        Which one the callee gets selects its path, and a calling context holds one object's
        facts, not an `Either` of several: the call is applied once per combination
        (`_apply_per_choice`). Empty when the combinations would be more than `_MAX_CHOICES`."""
        found: List[Tuple[Union[int, Optional[str]], Value]] = []
        combinations = 1
        for key, value in list(enumerate(args)) + list(keywords.items()):
            several = isinstance(value, Either) and len(value.options) > 1 and any(isinstance(o, Obj) for o in value.options)
            if several and (self.project.is_choice(value) or self._tested_by(func, receiver, args, keywords, value) and self._namespaces(value)):  # type: ignore[arg-type]
                found.append((key, value))
                combinations *= len(value.options)
        return found if combinations <= _MAX_CHOICES else []

    def _namespaces(self, value: Either) -> bool:
        """Whether each option of an argument is a whole object of no known class that nothing
        says is a module (`opts` from `parse_args()`, rebound on one arm by `opts =
        parser.parse_args(preset)`): a namespace of options, whose attributes the callee tests
        (`getattr(opts, "sharded", False)`). A callee's flag of a parameter that is one of several
        objects is no flag of the caller's (`_mapped_flags`), so two calls given the one namespace
        would test unrelated flags; applied once per object, each call's flags are its own."""
        return all(isinstance(o, Obj) and not o.attrs and o.cls is None and not self.is_module(o) and not self.may_hold_shards(o) for o in value.options)

    def _tested_by(self, func: nodes.FunctionDef, receiver: Optional[Obj], args: List[Value], keywords: Dict[Optional[str], Value], value: Value) -> bool:
        """Whether `func` tests an attribute of the parameter `value` is bound to: only there does
        which object it is tell its runs apart (a namespace passed on untested costs a walk per
        object for nothing: accelerate 28 -> 45 CPU s)."""
        tested = syntax.attribute_tested(func)
        return bool(tested) and any(bound is value and name in tested for name, bound in self._bound_arguments(func, receiver, args, keywords).items())

    def _apply_per_choice(
        self, node: nodes.NodeNG, func: nodes.FunctionDef, receiver: Optional[Obj], args: List[Value], keywords: Dict[Optional[str], Value],
        choices: List[Tuple[Union[int, Optional[str]], Value]],
    ) -> Value:
        """`func` called with each combination of the configurations `choices` may be, each on
        the runs that give it (a call on several values: `_alternatives`), so that a callee that
        tells them apart (`isinstance(cfg.fsdp, FSDPConfig)`) is walked with each as a context
        describes one object, and what it does with one is not joined with another's path."""
        combinations: List[Tuple[Dict[Union[int, Optional[str]], Value], Path]] = [({}, EMPTY)]
        for key, value in choices:
            combinations = [({**chosen, key: option}, runs | guard) for chosen, runs in combinations for option, guard in guarded_options(value)]

        def run(chosen: Dict[Union[int, Optional[str]], Value]) -> Value:
            given = [chosen.get(index, arg) for index, arg in enumerate(args)]
            named = {name: chosen.get(name, value) for name, value in keywords.items()}
            return self._apply_summary(node, func, receiver, given, named)

        return self._alternatives(node, [lambda chosen=chosen: run(chosen) for chosen, _ in combinations], [runs for _, runs in combinations])

    def _optimizer_over(self, params: Value, node: nodes.NodeNG, cls_name: str) -> Optional[Optimizer]:
        """An optimizer built at `node` over the parameters `params` carries, each module on the
        runs that give it; None where they are no module's the walk knows."""
        held = containers.param_owners_on_runs(params)
        if not held:
            return None
        runs = tuple(runs for _, runs in held)
        return Optimizer(tuple(self.canonical(owner) for owner, _ in held), node, cls_name, runs if any(runs) else ())

    def _optimizer_built(self, optimizer: Optimizer, taken: Optional[int] = None) -> Optimizer:
        self.optimizers.append(OptimizerBuilt(self._tick(), optimizer, self.path, taken))
        return optimizer

    def _collected(self, params: Params, node: nodes.NodeNG) -> Params:
        """A list of `params` collected at `node`: the tensors its owner has now (an earlier
        collection, listed again, keeps its own point)."""
        if params.taken is not None:
            return params
        seq = self._tick()
        self._collections[seq] = node
        return Params(params.owner, seq)

    def params_since(self, built: OptimizerBuilt) -> Tuple[Point, Optional[nodes.NodeNG]]:
        """The point as of which the tensors an optimizer holds are its modules' parameters: where
        the list of them it was given was collected (with the node that collected it), else
        where it was built. A `fully_shard` after that point replaced them."""
        if built.taken is None:
            return Point(built.seq, built.path), None
        return Point(built.taken, built.path), self._collections.get(built.taken)

    def _construct(self, node: nodes.Call, qname: Optional[str], args: List[Value], keywords: Dict[Optional[str], Value]) -> Value:
        """`Cls(...)` for a class of the tree: a new object on which `__init__` runs (or whose
        dataclass / NamedTuple fields take the arguments, after which a dataclass runs its
        `__post_init__`)."""
        if not qname:
            return Fresh(None)
        obj = self._materialise(Fresh(qname), syntax.assigned_name(node) or f"{qname.rsplit('.', 1)[-1]}()")
        assert isinstance(obj, Obj)
        init = self.project.resolve_method(obj, None, "__init__")
        if isinstance(init, Deferred):
            self._defer(node, init.module, obj, args, keywords)
        elif isinstance(init, nodes.FunctionDef):
            self._apply_summary(node, init, obj, args, keywords)
        else:
            fields = self.project.record_fields(qname)
            cls = self.project.callable_for_flow(qname)
            given = dict(list(zip(fields, args)) + [(k, v) for k, v in keywords.items() if k in fields])
            spread = containers.spread_keywords(keywords[None], fields) if None in keywords else [({}, EMPTY)]
            defaults = class_values.record_defaults(self.project, cls) if isinstance(cls, nodes.ClassDef) and spread else {}
            for name, value in containers.record_values(given, spread or [({}, EMPTY)], defaults).items():
                self.attr_env[(obj.root, (name,))] = value
                self._attr_version += 1
                self._store(value)
            post_init = self.project.resolve_method(obj, None, "__post_init__") if self.project.is_dataclass(qname) else None
            if isinstance(post_init, nodes.FunctionDef):
                self._apply_summary(node, post_init, obj, [], {})
        return obj

    def _method_call(self, node: nodes.Call, method: str, receiver: Value, args: List[Value], keywords: Dict[Optional[str], Value]) -> Value:
        if isinstance(receiver, Optimizer):
            candidate = self._candidates.pop(id(receiver.node), None)
            if candidate is not None and method in known_apis.OPTIMIZER_USES:
                self.optimizers.append(candidate)
            return StateDict(receiver) if method == "state_dict" else UNKNOWN
        assert isinstance(receiver, Obj)
        target = self.project.resolve_method(receiver, self.self_root, method, self.self_class)
        if isinstance(target, nodes.FunctionDef):
            # the tree's own method runs, also where it has a torch API's name (`trainer.train()`,
            # a wrapper's `parameters()`, a module's own `state_dict`)
            return self._apply_summary(node, target, receiver, args, keywords)
        if method in ("parameters", "named_parameters"):
            return Params(receiver)
        assigns = method == "load_state_dict" and syntax.assigns(node)
        if assigns:
            for owner in loaded_keys.replaced_by_load(receiver, args, keywords):
                self._replaced(owner, node)
        if method == "to_empty":
            self._advance(receiver, MetaState.EMPTY)
        elif known_apis.initialises(method) and (method != "load_state_dict" or assigns or self.meta_state(receiver) >= MetaState.EMPTY):
            # `load_state_dict` without `assign=True` copies into the parameters: a no-op on meta tensors
            self._advance(receiver, MetaState.INITIALISED)
        if method == "state_dict":
            if isinstance(target, Deferred):  # its class, in a module not entered, may define its own
                return self._defer(node, target.module, receiver, args, keywords)
            return StateDict(receiver)
        if method == "unshard":
            self.unsharded.append(receiver)
            return UNKNOWN
        if method == "reshard":
            self.unsharded = [u for u in self.unsharded if not path_covers(receiver, u)]
            return UNKNOWN
        if method in ("modules", "children"):
            return Iterable(receiver.child(self._member(node)))
        if method in ("named_modules", "named_children"):
            return Iterable(Container((UNKNOWN, receiver.child(self._member(node)))))
        if method == "values":
            return Iterable(receiver.child(WILDCARD))
        if method == "items":
            return Iterable(Container((UNKNOWN, receiver.child(WILDCARD))))
        if method in known_apis.SELF_RETURNING_METHODS:
            return receiver
        if isinstance(target, Deferred):
            return self._defer(node, target.module, receiver, args, keywords)
        origin = self.deferred_module(receiver)
        if origin is not None:  # its class, unknown until that module is entered, may define `method`
            return self._defer(node, origin, receiver, args, keywords)
        owner = self._entries_of(node.func.expr) if method in ("get", *_KEY_CHANGES) and isinstance(node.func, nodes.Attribute) else None
        if owner is not None and method in ("get", "pop") and args and isinstance(args[0], Constant) and isinstance(args[0].value, str) and not keywords:
            read = self._entry_read(owner, args[0].value, args[1] if len(args) > 1 else None if method == "pop" else Constant(None))
            if method == "pop":  # `config["denoiser"].pop("fsdp", None)`
                self._entry_removed(owner, args[0], node)
            return read
        if owner is not None and method != "get":  # `config.update(overrides)`
            self._entries_changed(owner, node)
        stored = self.deferred_module(self.canonical(receiver.child(method)))
        if stored is not None:  # a function a call into code not entered returned, stored on the object (`self.train_step = make_train_step(cfg)`)
            self._returned_called(node, stored, args, keywords)
        if method not in known_apis.INERT_METHODS:
            if self._library_call_may_shard(receiver, method, args, keywords):
                self.escaped.add(receiver.root)
            self._escape(args, keywords)
        return Fresh(None)

    def _library_call_may_shard(self, receiver: Obj, method: str, args: List[Value], keywords: Dict[Optional[str], Value]) -> bool:
        """Whether `receiver.method(...)`, a method the tree does not define, may shard the module
        it is called on: unless its class is known, and the library it takes the method from
        shards nothing there (`known_apis.library_method_may_shard`: a Hugging Face model's
        `gradient_checkpointing_enable()`), and no function given to it may shard."""
        if any(self._may_shard(option) for value in list(args) + list(keywords.values()) for option in options_of(value)):
            return True
        found = self.canonical(receiver)
        cls = self.class_name(found) or found.cls
        return cls is None or known_apis.library_method_may_shard(class_values.method_sources(self.project, cls, method), method)

    def _state_dict_getter(self, node: nodes.Call, getter: str, args: List[Value], keywords: Dict[Optional[str], Value]) -> Value:
        full = self.full_state_dict(node)
        if full is True:  # gathered whole: plain tensors, whatever the module holds
            return Container((GATHERED, GATHERED)) if getter == "get_state_dict" else GATHERED
        if full is not False:
            return UNKNOWN
        module = args[0] if args else keywords.get("model", UNKNOWN)
        if getter == "get_optimizer_state_dict" and len(args) > 1 and isinstance(args[1], Optimizer):
            return StateDict(args[1])
        optim = args[1] if len(args) > 1 else keywords.get("optimizers", UNKNOWN)

        def of(option: Value) -> Value:  # the state dict of each module the argument may be
            if not isinstance(option, Obj):
                return UNKNOWN
            if getter == "get_state_dict":  # (the model's, the optimizers'): a pair whatever optimizers it is given
                return Container((StateDict(option), StateDict(optim) if isinstance(optim, Optimizer) else UNKNOWN))
            return StateDict(option)

        return mapped_options(module, of)

    def _escape(self, args: List[Value], keywords: Dict[Optional[str], Value], initialises: bool = True) -> None:
        """The values are handed to unknown code: it may keep them, and may initialise the modules
        (unless torch's documented behaviour says it does not)."""
        for value in list(args) + list(keywords.values()):
            for obj in related_objects(value):
                self.escaped.add(obj.root)
            for obj in objects_in(value) if initialises else ():
                self._advance(obj, MetaState.INITIALISED)

    # ---- calls into the linted tree -----------------------------------------------------------------

    def _returned_called(self, node: nodes.Call, module: str, args: List[Value], keywords: Dict[Optional[str], Value]) -> None:
        """A call of a function that a call into `module`, not entered, returned: recorded as a
        deferred call into it (`Deferred.returned`), which enters it where what the call receives
        may hold shards and it makes functions; until then the call is one of unknown code, whose
        result is no object of that module's (the caller goes on as for any unknown call)."""
        received = list(args) + list(keywords.values())
        self.deferred.add(module)
        self.project.defer(module, received, (self.key, f"<returned {node.lineno}:{node.col_offset}>", 0), returned=True)

    def _defer(self, node: nodes.Call, module: str, receiver: Optional[Obj], args: List[Value], keywords: Dict[Optional[str], Value]) -> Value:
        """A call into a module the flows do not enter: unknown code, as for a name outside the
        tree, except that the result is an object of its own at once (so that any use of it,
        `build().model` or `for m in build()`, lands on a root the engine can ask about)."""
        received = list(args) + list(keywords.values()) + ([receiver] if receiver is not None else [])
        if self.meta_objects and any(self._uninitialised_within(obj) for value in received for obj in related_objects(value)):
            self.project.demand({module})  # unknown code may initialise it: what it does decides FSD105
        elif any(self._may_shard(option) for value in received for option in options_of(value)):
            self.project.demand({module})  # it may shard what it receives through the function it is given
        self._escape(args, keywords)
        if receiver is not None:
            self.escaped.add(receiver.root)
        self.deferred.add(module)
        result = self._materialise(Fresh(None), f"<call {node.lineno}:{node.col_offset}>")
        assert isinstance(result, Obj)
        self.project.defer(module, received, result.root)
        return result

    def _may_shard(self, value: Value) -> bool:
        """Whether a value handed to a call is a function that may shard: `fully_shard` itself (or
        a partial of it), or a function of an entered module that calls one (`Project.may_shard`):
        `configure_model(model, shard_fn=shard_model)`."""
        if isinstance(value, ShardFunction):
            return True
        target = self.project.callable_for_flow(value.qname) if isinstance(value, Partial) else None
        return isinstance(target, nodes.FunctionDef) and self.project.may_shard(target)

    def _bound_arguments(self, func: nodes.FunctionDef, receiver: Optional[Obj], args: List[Value], keywords: Dict[Optional[str], Value]) -> Dict[str, Value]:
        """Parameter name -> argument value, as Python binds them; a default counts when it is a
        name or a constant and no `**` of unknown contents may give the parameter (other
        defaults, and `*args`/`**kwargs`, stay unknown)."""
        arguments = func.args
        positional = [a.name for a in syntax.positional_parameters(arguments)]
        is_method = isinstance(func.parent, nodes.ClassDef) and not syntax.is_staticmethod(func)
        bound: Dict[str, Value] = {}
        if is_method and positional and (receiver is not None or syntax.is_classmethod(func)):
            # called on an object (or a class): it is the first parameter. Called through its
            # class (`Base.prepare(self)`), the first argument is.
            if not syntax.is_classmethod(func):
                bound[positional[0]] = receiver
            positional = positional[1:]
        for name, value in zip(positional, args):
            bound[name] = value
        names = set(positional) | {a.name for a in arguments.kwonlyargs or []} | set(free_variables(func, self.project.binding))
        for name, value in keywords.items():
            if name in names:
                bound[name] = value
        spread = _splatted(keywords[None]) if None in keywords else []
        for name, value in spread or ():  # `**state`, a dict whose keys are known
            if name in names and name not in bound:
                bound[name] = value
        for name, default in syntax.defaults(arguments) if spread is not None else ():  # (a `**` of unknown contents may give any)
            if name not in bound and isinstance(default, (nodes.Name, nodes.Attribute, nodes.Const)):
                value = self._eval(default)
                if not isinstance(value, Unknown):
                    bound[name] = value
        return bound

    def _context_for(self, func: nodes.FunctionDef, bound: Dict[str, Value], call: nodes.NodeNG) -> Tuple[Context, Dict[str, Origin]]:
        """What this walk knows, at this call, of the objects the callee receives: facts about
        each object argument relative to the parameter, other values as they are, and the
        sharded paths of the module globals the callee reads (as this walk reaches them; for a
        callee of another module, also as that module's top level left them) and of the objects
        those other values refer to."""
        here = self.point()
        seq, path = here
        live = [e for e in self.events if e.seq < seq and paths.compatible(e.path, path)]  # `happens_before`, at every call
        live = self._with_roots_made(live, call)
        params: List[Tuple[str, Union[ObjectFacts, Value]]] = []
        origins: Dict[str, Origin] = {}
        passed = {name for name, value in bound.items() if not isinstance(value, Obj) and self._passes(value, live) or self._decides(func, name, value)}
        referred = [self.canonical(o) for name in sorted(passed) for o in related_objects(bound[name])]
        reached = frozenset(o.root for o in referred)  # the objects the callee reaches as they are, by this walk's roots
        for name in sorted(bound):
            value = bound[name]
            if isinstance(value, Obj):
                reads = class_values.self_reads(self.project, func) if syntax.is_instance_method(func) and name == syntax.first_param(func) else None
                facts, origin = self._facts_of(self.canonical(value), _param_root(func, name), live, call, func.name, reads, func)
                forwarded = self._forwarded_in(self.canonical(value)) if facts.sharded else frozenset()
                facts = replace(
                    facts, conditions=self._named_flags(facts.conditions, bound, reached), forwarded=forwarded,
                    meta=self._named_meta(facts.meta, bound), compiled=self._compiled_in(self.canonical(value)),
                    reregistered=self._reregistered_in(self.canonical(value)),
                )
                params.append((name, facts))
                if origin is not None:
                    origins[name] = origin
            elif name in passed:
                params.append((name, _handed(value)))
        module = func.root().name
        facts = self.project.module_globals(module) if module != self.scope.root().name else NOTHING
        reads = self.project.globals_read(func) if live or facts.sharded or facts.deferred else frozenset()
        aliases = self._bound_globals() if reads and live else {}
        flagged: Dict[Tuple[Root, AttrPath], Path] = {}  # each shared path, with the flags every run that sharded it fixed
        for e in live:
            # the globals the callee reads that reach the target: by their names, or held by attributes
            found = [path for path in paths_to(self.names_of(e.target), aliases) if path[0][1] in reads] if reads else []
            if any(path_covers(o, e.target) or path_covers(e.target, o) for o in referred):
                found.append((e.target.root, e.target.attrs))
            for root, attrs in found:
                target = (root, anonymous_attrs(attrs))  # a member named at run time is anonymous to the callee
                flags = self._current_flags(e.path, e.seq, func)
                flagged[target] = flagged[target] & flags if target in flagged else flags
        if reads:  # a callee of another module: its globals as its top level left them, which its deferred calls may change
            self.deferred |= facts.deferred
            for target in facts.sharded:
                if target[0][1] in reads:
                    flagged[target] = EMPTY  # on some run
        shared = frozenset(flagged)
        flagged = {target: flags for target, flags in flagged.items() if flags}
        conditions = self._named_flags(tuple(sorted(flagged.items())), bound, reached) if flagged else ()
        not_none = frozenset(name for name in self.project.none_tested(func) if name in bound and self._is_none(bound[name]) is False)
        reregistered = frozenset(
            (target.root, anonymous_attrs(target.attrs)) for target in self._pending_reregistrations()
            if any(path_covers(o, target) or path_covers(target, o) for o in referred)
        )
        outcomes = self._outcomes_for(func, bound, call, reached) if paths.flag_literals(self.path) else frozenset()
        plain = frozenset(o.root for o in referred if not o.attrs and (o.root in self._plain or class_values.plain_module(self.project, o.cls or self.classes.get(o.root))))
        held = self._held_globals(bound) if self._rebound_globals else ()
        certain = self._sharded_globals(shared, call)
        context = Context(
            tuple(params), shared, conditions, self._meta_referred(referred, bound), not_none, reregistered, outcomes, plain, held, certain,
            _within(self._object_arguments(func, bound), self._path_inside),
        )
        return context, origins

    def _object_arguments(self, func: nodes.FunctionDef, bound: Dict[str, Value]) -> List[Tuple[Obj, str]]:
        """The objects a call hands `func` as arguments of its named parameters (not those a
        `**kwargs` gathers), each as it denotes it (`canonical`) with its parameter, those reached
        by longer paths first."""
        named = {arg.name for arg in syntax.named_parameters(func)}
        found = [(self.canonical(value), name) for name, value in bound.items() if isinstance(value, Obj) and name in named]
        return sorted(found, key=lambda item: (-len(item[0].attrs), item[1]))

    def _sharded_globals(self, shared: FrozenSet[Tuple[Root, AttrPath]], call: nodes.NodeNG) -> FrozenSet[Tuple[Root, AttrPath]]:
        """`Context.certain`: the globals of this walk's module handed to a callee (the names
        themselves) that are `FSDPModule`s on every run to the call, each object the name may be
        bound to here (the top level's `model`, built from scratch or resumed) sharded on every
        run, as a parameter's object is (`ObjectFacts.certain`)."""
        found = []
        for root, attrs in shared:
            if attrs or root[0] != self.scope.root().name:
                continue
            value = self.env.get(root[1], UNKNOWN) if self.scope is self.scope.root() else Obj(root)
            options = options_of(value)
            if options and all(isinstance(o, Obj) and self.is_fsdp_module(o, call) is True for o in options):
                found.append((root, attrs))
        return frozenset(found)

    def _outcomes_for(self, func: nodes.FunctionDef, bound: Dict[str, Value], call: nodes.NodeNG, reached: FrozenSet[Root]) -> FlagConditions:
        """`Context.outcomes`: the flags of this walk's path (not which modules are sharded: the
        shard conditions say that) named as the callee reads them, by its parameters
        (`_named_flags`), by a parameter the flag itself is passed to (`state_dict_type=
        self.config.state_dict_type`), or as they are (the run's inputs); only those of
        attributes the callee's walk may test."""
        flags = frozenset(literal for literal in paths.flag_literals(self.path) if paths.FSDP_MODULE not in literal[0][2])  # type: ignore[operator]
        if not flags:
            return frozenset()
        tested = self.project.attributes_tested(func)
        named = {
            outcome for _, found in self._named_flags(((None, flags),), bound, reached)  # type: ignore[arg-type]
            for outcome in found if outcome[1] and outcome[1][-1] in tested
        }
        if isinstance(call, nodes.Call):
            for name, expr in _passed_expressions(func, call):
                subject = self._flag_subject(expr) if name in tested else None
                for root, attrs, test, value in paths.flags(flags) if subject is not None else ():
                    if (root, attrs) == (subject.root, subject.attrs):
                        named.add((name, (), test, value))
        return frozenset(named)

    def _compiled_in(self, base: Obj) -> FrozenSet[AttrPath]:
        """The paths at or below `base` that `torch.compile` returned, relative to it."""
        return frozenset(
            attrs[len(base.attrs):] for root, attrs in self.compiled if root == base.root and attrs[: len(base.attrs)] == base.attrs
        ) if self.compiled else frozenset()

    def _meta_referred(self, referred: List[Obj], bound: Dict[str, Value]) -> Tuple[Tuple[MetaKey, Materialised], ...]:
        """The objects on the meta device that values other than objects refer to (an `Either` of
        modules, the modules an optimizer is over) or that those hold, by this walk's names,
        which the callee's effects on them keep: how far each got here, its short run in the
        callee's terms. One an object argument is or holds is the callee's by that argument's
        name (`ObjectFacts.meta`), not by a second one."""
        if not referred or not self.meta_objects:
            return ()
        here = self.point()
        named = [self.canonical(value) for value in bound.values() if isinstance(value, Obj)]
        found = [
            (key, self._materialisation(key, here)) for key in sorted(self.meta_objects)
            if any(self.contains(Obj(*key), o) or self.contains(o, Obj(*key)) for o in referred)
            and not any(self.contains(Obj(*key), o) or self.contains(o, Obj(*key)) for o in named)
        ]
        return self._named_meta(tuple(found), bound) if found else ()

    def _named_flags(
        self, conditions: Tuple[Tuple[_Key, Path], ...], bound: Dict[str, Value], reached: FrozenSet[Root],
    ) -> Tuple[Tuple[_Key, FlagConditions], ...]:
        """Flag literals of this walk's objects as attributes of the callee's parameters
        (`self.world_mesh`), or of the objects it reaches as they are (`reached`: one of several a
        parameter may be, and the run's inputs, `environment`): a flag of an object the callee
        does not receive is dropped."""
        holders = [(name, self.canonical(value)) for name, value in sorted(bound.items()) if isinstance(value, Obj)]
        named = []
        for key, flags in conditions:
            kept: Set[Tuple[Union[str, Root], AttrPath, paths.Test, bool]] = set()
            for root, flag_attrs, test, value in paths.flags(flags):
                # by each path the callee may read it through (`self.args.fsdp`, `self.config.fsdp`)
                for flag in self.names_of(Obj(root, flag_attrs)) if holders else ():
                    for name, holder in holders:
                        if holder.root == flag.root and flag.attrs[: len(holder.attrs)] == holder.attrs:
                            kept.add((name, flag.attrs[len(holder.attrs):], test, value))
                            break
                if root in reached or environment.is_input(root):  # (an input means the same to every function)
                    kept.add((root, flag_attrs, test, value))
            if kept:
                named.append((key, frozenset(kept)))
        return tuple(named)

    def _as_stored(self, value: Value, base: Obj, root: Root, path: AttrPath) -> Optional[Value]:
        """An attribute's value as the callee holds it: an object by the path it is stored at
        (`self.model`, mapped back to the caller's object when the callee's effects return), so a
        context never names the caller's own objects and is shared by every call site alike.
        Each option keeps the tests of the run's inputs that give it (`cfg.fsdp2` where
        `FSDP_VERSION` is "2"): they mean the same in the callee."""
        options: List[Tuple[Value, Path]] = []
        for option, given in guarded_options(value):
            guard = environment.about_inputs(given)
            if isinstance(option, Obj):
                inside = option.root == base.root and option.attrs[: len(base.attrs)] == base.attrs
                cls = option.cls or (self.classes.get(option.root) if not option.attrs else None)
                options.append((Obj(root, anonymous_attrs(option.attrs[len(base.attrs):] if inside else path), cls), guard))
            elif isinstance(option, Optimizer):
                stored = self._optimizer_as_stored(option, base, root)
                if stored is not None:
                    options.append((anonymous(stored), guard))
            elif isinstance(option, (ShardFunction, Options, *WHOLE_STATES)) or travels(option):
                options.append((option, guard))
            elif isinstance(option, Partial):
                options.append((self._partial_as_stored(option, base, root), guard))
            elif isinstance(option, Container) and contained(option, Optimizer) or contained(option, StateDict):
                # a state dict of a module (or optimizer) inside the object, kept for a later
                # method (`self.ema = self.model.state_dict()`; a dict of them), or a list of
                # optimizers over modules inside it (`self.optimizers = create_optimizers(self.model)`)
                stored = self._state_as_stored(option, base, root)
                if stored is not None:
                    options.append((stored, guard))
        return guarded(options) if options else None

    def _partial_as_stored(self, partial: Partial, base: Obj, root: Root) -> Partial:
        """A function stored on the object (`self.forward_backward = fwd_bwd_factory(cfg)`, called
        later as `self.forward_backward(self.model, x)`), with what it binds as the callee holds
        it: an object inside `base` by its path, a value that travels as it is, the rest unknown
        (a context never names the caller's own objects)."""
        def held(value: Value) -> Value:
            path = self._path_inside(value, base) if isinstance(value, Obj) else None
            if path is not None:
                return Obj(root, anonymous_attrs(path), value.cls)  # type: ignore[union-attr]
            return value if travels(value) or isinstance(value, (ShardFunction, Options)) else UNKNOWN

        return Partial(partial.qname, tuple(held(value) for value in partial.args), tuple((name, held(value)) for name, value in partial.keywords))

    def _state_as_stored(self, value: Value, base: Obj, root: Root, depth: int = 0) -> Optional[Value]:
        """`_as_stored` of a state dict whose owner lies inside `base`, or of a dict, list or
        tuple holding some or optimizers over modules inside it (their other items unknown):
        None where it holds none the callee can name."""
        if isinstance(value, Optimizer) and depth:
            stored = self._optimizer_as_stored(value, base, root)
            return anonymous(stored) if stored is not None else None
        if isinstance(value, StateDict):
            owner = value.owner
            if isinstance(owner, Obj):
                path = self._path_inside(owner, base)
                return StateDict(Obj(root, path), value.copies) if path is not None else None
            optimizer = self._optimizer_as_stored(owner, base, root)
            return StateDict(optimizer, value.copies) if optimizer is not None else None
        if isinstance(value, Container) and depth < 4:
            items = [self._state_as_stored(item, base, root, depth + 1) for item in value.items]
            if all(item is None for item in items):
                return None
            return Container(tuple(UNKNOWN if item is None else item for item in items), value.keys, value.exact)
        return None

    def _with_referred(self, base: Obj, reads: FrozenSet[str]) -> FrozenSet[str]:
        """The attributes of `base` a method reads, and those holding the modules that an
        optimizer or a state dict stored at one of them is over (`self.optimizer` over
        `self.model`): whether those modules are sharded is what a use of it asks."""
        found = set(reads)
        for attr in reads:
            value = self.attr_env.get((base.root, base.attrs + (attr,)))
            if value is None:
                continue
            for derived in contained(value, Optimizer) + contained(value, StateDict):
                for obj in related_objects(derived):
                    path = self._path_inside(obj, base)
                    if path:
                        found.add(path[0])
        return frozenset(found)

    def _optimizer_as_stored(self, optimizer: Optimizer, base: Obj, root: Root) -> Optional[Optimizer]:
        """An optimizer over modules inside `base` (`self.optimizer` over `self.model`, which
        `__init__` built and then stored), over them by their paths: None where it is over none
        the callee can name."""
        over = tuple(Obj(root, path, o.cls) for o, path in ((o, self._path_inside(o, base)) for o in optimizer.over) if path is not None)
        return Optimizer(over, optimizer.node, optimizer.cls_name) if over else None

    def _path_inside(self, obj: Obj, base: Obj) -> Optional[AttrPath]:
        """The path below `base` by which `obj` is reached (`("model",)` for the module stored as
        `self.model`), if it is."""
        for name in self.names_of(obj):
            if name.root == base.root and name.attrs[: len(base.attrs)] == base.attrs:
                return name.attrs[len(base.attrs):]
        return None

    def _passes(self, value: Value, live: List[ShardEvent]) -> bool:
        """Whether a value other than an object is worth its place in a calling context: one the
        rules read (an optimizer, also in a tuple or list, a sharding function, options, a flag, a
        full state dict, what a file held), or one that refers to objects something happened to. Others would only make each call site a
        context of its own."""
        if isinstance(value, (Optimizer, ShardFunction, Options, Partial, ClassRef, RankNamed, *WHOLE_STATES)) or travels(value):
            return True
        if isinstance(value, (Constant, Unknown, Fresh)):
            return False
        if contained(value, Optimizer) or contained(value, Params):
            return True  # what the callee may build an optimizer over (`build_optimizer(model.parameters())`)
        if isinstance(value, Container) and any(o.cls or o.root in self.classes for o in objects_in(value)):
            return True  # a dict or list of models whose methods the callee may call (`models["dit"].shard()`)
        objects = [self.canonical(o) for o in related_objects(value)]
        return any(self.contains(o, e.target) or self.contains(e.target, o) for o in objects for e in live) or any(
            self.meta_object(o, inside=True) is not None for o in objects
        )

    def _decides(self, func: nodes.FunctionDef, name: str, value: Value) -> bool:
        """Whether a constant that does not travel (an int, a string) is worth its place in the
        context of a call of `func` anyway: the parameter it binds is a name `func`, or what it
        calls, tests (`if dp > 1:` with `build(2)`), so the test takes one arm, as it would for
        a flag passed as `True`."""
        return isinstance(value, Constant) and not travels(value) and name in self.project.attributes_tested(func)

    def _facts_of(
        self, base: Obj, root: Root, live: List[ShardEvent], call: nodes.NodeNG, callee: str, reads: Optional[FrozenSet[str]] = None,
        reader: Optional[nodes.FunctionDef] = None,
    ) -> Tuple[ObjectFacts, Optional[Origin]]:
        """The facts of the object `base` as the callee's parameter (`root`) sees them; the flag
        conditions of its sharded paths are still in this walk's terms (`_context_for` names them
        by the callee's parameters)."""
        if reads is not None:
            reads = self._with_referred(base, reads)
        sharded: Dict[AttrPath, Path] = {}  # each sharded path, with the flags every run that sharded it fixed
        certain: Set[AttrPath] = set()
        named: Set[AttrPath] = set()  # matched by their names, not only through a wildcard

        def note(attrs: AttrPath, event: ShardEvent, exact: bool = False, by_name: bool = True) -> None:
            attrs = anonymous_attrs(attrs)
            if by_name and not event.guessed:
                named.add(attrs)
            flags = self._current_flags(event.path, event.seq, reader)
            sharded[attrs] = sharded[attrs] & flags if attrs in sharded else flags
            if exact and attrs != ABOVE and attrs not in certain and not any(map(is_wildcard, event.target.attrs)) and self._on_every_run(event, call):
                certain.add(attrs)

        def hold(stored: Obj, at: AttrPath, origin: Optional[Origin], deeper: bool = False, alone: bool = True) -> Optional[Origin]:
            """`stored`, held at `at` below `base`: its sharded paths (and `origin`, the first).
            `deeper`: held by what `base` holds, where only it and the modules inside it count,
            by their own paths (a module it lies in is a shallower path's; a wildcard there is
            no member: `wrapper._all_handles[*].flat_param` is none of the modules sharded).
            Not `alone`: one of several objects the path may hold, whose shards are no must."""
            for event in live:
                inside = path_must_cover(stored, event.target) if deeper else path_covers(stored, event.target)
                if inside or not deeper and path_covers(event.target, stored):
                    extra = event.target.attrs[len(stored.attrs):] if inside else ()
                    same = (stored.root, stored.attrs) == (event.target.root, event.target.attrs[: len(stored.attrs)])
                    note(at + extra, event, alone and same, same or not inside)
                    if origin is None:
                        source = event.origin or Origin(event.node, self._display_name())
                        origin = source.passed(call, callee) if isinstance(call, nodes.Call) else source
            return origin

        origin: Optional[Origin] = None
        for event in live:
            target = event.target
            if target.root == base.root and len(target.attrs) >= len(base.attrs) and path_covers(Obj(base.root, target.attrs[: len(base.attrs)]), base):
                by_name = target.attrs[: len(base.attrs)] == base.attrs
                inside = target.attrs[len(base.attrs):]
                note(ABOVE if event.above and not inside else inside, event, by_name, by_name)
            elif path_covers(target, base):
                note(() if len(target.attrs) == len(base.attrs) else ABOVE, event, target.attrs == base.attrs, path_must_cover(target, base))
            else:
                continue
            if origin is None:
                source = event.origin or Origin(event.node, self._display_name())
                origin = source.passed(call, callee) if isinstance(call, nodes.Call) else source
        # what is stored on the object (`self.model`), and on the objects stored on it a few
        # levels down (`self.state.fsdp_config`): its value as the callee will see it
        attrs: Dict[AttrPath, Value] = {}
        kept: List[Tuple[AttrPath, Value]] = []  # the values of those, as this walk holds them
        for path, value, nested in self._stored_on(base, reads):
            relative = self._as_stored(value, base, root, path)
            if relative is not None and path not in attrs and (self._describes(value) if nested else self._informative(value)):
                attrs[path] = relative
                kept.append((path, value))
            if nested:
                continue  # the modules held deeper are below (`_stored_under`)
            # the modules it holds or holds the state of (`self.ema = self.model.state_dict()`:
            # `self.model`, as the callee names it), with their sharded paths
            # (not the object at that very path, as a calling context describes it: its own
            # sharded paths are noted above, and a module around it sharded is no shard of it)
            # (each object the path may hold, where branches stored one of several: `self.model`
            # from `from_pretrained` or from a config, each sharded. The callee names them all by
            # the one path: where some hold no shard (the FSDP1 wrapper of a model the other
            # branch shards with `fully_shard`) it cannot tell which runs hold the shards, and the
            # path is left as it stands. None holds nothing a call through the path could reach:
            # `self.projector = None` on the arm that builds no projector leaves the other arm's
            # sharded one the only module there, on the runs that hold one)
            options = options_of(value)
            objects = [o for o in options if isinstance(o, Obj) and (o.root, o.attrs) != (base.root, base.attrs + path)]
            if len(options) > 1 and not all(isinstance(o, Obj) and self._holds_live(o, live) or o == Constant(None) for o in options):
                objects = []
            held = [(o, path, len(options) == 1) for o in objects]
            for option in options if len(options) == 1 else ():
                if isinstance(option, Container):  # `self.models = {"backbone": model}`: each item, as `self.models[...]` reads it
                    items = objects_in(option)
                    held.extend((o, path + (WILDCARD,), len(items) == 1) for o in items)
            for state in contained(value, StateDict) if relative is not None else ():
                for owner in related_objects(state):
                    inside = self._path_inside(owner, base)
                    if inside is not None:
                        held.append((self.canonical(owner), inside, True))
            for stored, at, alone in held:
                origin = hold(stored, at, origin, alone=alone)
        # and the modules stored deeper (`self.gen.model`: held by an object that `self` holds)
        stored_roots = {e.target.root for e in live} - {base.root}  # only what is stored somewhere is held below `base`
        below = self._stored_under(base, reads) if self.meta_objects or any(map(self._holders_of, stored_roots)) else []
        for at, stored in below:
            if len(at) > 1:
                origin = hold(stored, at, origin, deeper=True)
        meta = self._meta_held(base, below, reads)
        # the classes of the objects on the way to one of those deeper (`self.gen`, the wrapper
        # whose forward runs the model it holds), so that the callee runs their methods
        toward = [path for path, _ in meta] + [path for path in sharded if path != ABOVE]
        classes: Dict[AttrPath, List[str]] = {}  # several where the path leads to one of several objects
        for at, stored in below:
            cls_of = stored.cls or (self.classes.get(stored.root) if not stored.attrs else None)
            path = anonymous_attrs(at)
            if len(at) > 1 and cls_of and path not in attrs and any(len(p) > len(path) and p[: len(path)] == path for p in toward):
                classes.setdefault(path, [])
                if cls_of not in classes[path]:
                    classes[path].append(cls_of)
        attrs.update((path, either([Obj(root, path, cls_of) for cls_of in found])) for path, found in classes.items())
        cls = base.cls or (self.classes.get(base.root) if not base.attrs else None)
        conditions = tuple((attrs, flags) for attrs, flags in sorted(sharded.items()) if flags)
        deferred = self._deferred_in(base, kept)
        facts = ObjectFacts(
            cls, frozenset(sharded), meta, tuple(sorted(attrs.items())), conditions, frozenset(certain), deferred=deferred,
            guessed=frozenset(sharded) - named, plain=not base.attrs and base.root in self._plain,
        )
        return facts, origin

    def _deferred_in(self, base: Obj, stored: List[Tuple[AttrPath, Value]]) -> Tuple[Tuple[AttrPath, str], ...]:
        """`ObjectFacts.deferred` of `base`: it, and the values stored on it that the callee
        receives, where each is the result of a deferred call (one module per path: where
        several may be, the others are found once this one is entered)."""
        found: Dict[AttrPath, str] = {}
        module = self.deferred_module(base)
        if module is not None:
            found[()] = module
        for path, value in stored:
            modules = sorted(m for m in (self.deferred_module(self.canonical(o)) for o in options_of(value) if isinstance(o, Obj)) if m)
            if modules:
                found[path] = modules[0]
        return tuple(sorted(found.items()))

    def deferred_module(self, obj: Obj, within: bool = False) -> Optional[str]:
        """The module of the deferred call whose result `obj` is (with `within`: or lies in, as
        an attribute of it), if there is one: a call made here or by a callee, or one the caller
        made (`ObjectFacts.deferred`). Its class, unknown until that module is entered, decides
        what a method called on it does and what its attributes are."""
        for length in range(len(obj.attrs), -1 if within else len(obj.attrs) - 1, -1):
            module = self._deferred_at.get((obj.root, obj.attrs[:length])) or (self.project.origin(obj.root) if not length else None)
            if module is not None:
                return module
        return None

    @staticmethod
    def _holds_live(obj: Obj, live: List[ShardEvent]) -> bool:
        """Whether one of the shard events `live` sharded `obj`, a module inside it or around it."""
        return any(path_covers(obj, event.target) or path_covers(event.target, obj) for event in live)

    def _stored_on(self, base: Obj, reads: Optional[FrozenSet[str]]) -> List[Tuple[AttrPath, Value, bool]]:
        """The attributes stored on `base`, by their paths below it, with their values: its own
        (those the callee reads, where `reads` says), then those of the objects stored on it,
        `STORED_DEPTH` levels down (`self.state` holds the `State` whose `fsdp_config` selects
        the sharding), marked nested. A callee that reaches them through the holder then sees
        what the caller built there."""
        found: List[Tuple[AttrPath, Value, bool]] = []
        pending = [(base, (), 0)]
        visited = {base.root}
        while pending:
            holder, prefix, depth = pending.pop(0)
            for attr_path, value in sorted(self._owned_by(holder.root), key=lambda item: item[0]):
                if attr_path[: len(holder.attrs)] != holder.attrs or len(attr_path) <= len(holder.attrs):
                    continue
                path = anonymous_attrs(prefix + attr_path[len(holder.attrs):])
                if depth == 0 and reads is not None and path[0] not in reads:
                    continue  # the method (and the methods of self it calls) never reads it
                found.append((path, value, depth > 0))
                inner = self.canonical(value) if isinstance(value, Obj) and depth < STORED_DEPTH else None
                if inner is not None and inner.root not in visited:
                    visited.add(inner.root)
                    pending.append((inner, path, depth + 1))
        return found

    def _describes(self, value: Value) -> bool:
        """Whether a value stored a level or more down (`self.state.fsdp_config`) is worth its
        place in a calling context: every value it may be is a setting (an object of a setting
        class, `class_values.is_setting_class`), a flag, options or a sharding function: what
        the callee's tests decide on. The rest (the submodules of a model) would only multiply
        the contexts its holder's methods are analysed in."""
        for option in options_of(value):
            if isinstance(option, Obj):
                cls = option.cls or (self.classes.get(option.root) if not option.attrs else None)
                if not class_values.is_setting_class(self.project, cls):
                    return False
            elif not (isinstance(option, (Options, ShardFunction)) or travels(option)):
                return False
        return True

    def _owned_by(self, root: Root) -> List[Tuple[AttrPath, Value]]:
        """The attributes of the objects of `root`, with their values: an index of `attr_env` by
        owner, rebuilt only when `attr_env` changed."""
        version, index = self._owners
        if version != self._attr_version:
            index = {}
            for (owner, attrs), value in self.attr_env.items():
                index.setdefault(owner, []).append((attrs, value))
            self._owners = (self._attr_version, index)
        return index.get(root, [])

    def _stored_under(self, base: Obj, reads: Optional[FrozenSet[str]], depth: int = 3) -> List[Tuple[AttrPath, Obj]]:
        """The objects stored on `base` and, a few attributes down, on what it holds, each by the
        first path from `base` that reaches it (`("model", "generator", "model")`), among the
        attributes the callee reads (`reads`)."""
        found: List[Tuple[AttrPath, Obj]] = []
        seen = {(base.root, base.attrs)}
        frontier: List[Tuple[AttrPath, Obj]] = [((), base)]
        for _ in range(depth):
            following = []
            for path, holder in frontier:
                for attrs, value in self._owned_by(holder.root):  # in the order they were stored
                    if len(attrs) <= len(holder.attrs) or attrs[: len(holder.attrs)] != holder.attrs:
                        continue
                    at = path + attrs[len(holder.attrs):]
                    if reads is not None and at[0] not in reads:
                        continue  # the method (and the methods of self it calls) never reads it
                    # an object, or one a dict or list there holds (`self.states = {"model":
                    # ModelWrapper(model)}`: `self.states[*]`, as a subscript reads it)
                    held = [(at, o) for o in options_of(value) if isinstance(o, Obj) and (o.root, o.attrs) != (holder.root, attrs)]  # not itself (`_join`)
                    held += [(at + (WILDCARD,), o) for c in options_of(value) if isinstance(c, Container) for o in objects_in(c)]
                    for place, option in held:
                        stored = self.canonical(option)
                        if (stored.root, stored.attrs) not in seen:
                            seen.add((stored.root, stored.attrs))
                            found.append((place, stored))
                            following.append((place, stored))
            frontier = following
        return found

    def _meta_held(self, base: Obj, below: List[Tuple[AttrPath, Obj]], reads: Optional[FrozenSet[str]]) -> Tuple[Tuple[AttrPath, Materialised], ...]:
        """The objects on the meta device that `base` is or holds (`below`: what is stored under
        it), by their paths from it (`()`, `("model",)`: as sharded paths travel, so that a later
        method of the object that holds the model sees how far it got), with how far each got
        here (`short` in this walk's terms). One this walk knows by a path (`self.model`, as its
        caller named it) is held where that path leads."""
        if not self.meta_objects:
            return ()
        here = self.point()
        held: Dict[AttrPath, Materialised] = {}
        for path, stored in [((), base), *below]:
            for root, attrs in sorted(self.meta_objects):
                if root != stored.root or attrs[: len(stored.attrs)] != stored.attrs:
                    continue
                at = path + attrs[len(stored.attrs):]
                if at and reads is not None and at[0] not in reads:
                    continue  # the method (and the methods of self it calls) never reads it
                held.setdefault(anonymous_attrs(at), self._materialisation((root, attrs), here))
        return tuple(sorted(held.items()))

    def _materialisation(self, key: MetaKey, point: Point) -> Materialised:
        least, run = self._least(key, point, MetaState.META)
        most = max((state for _, state in self._steps_to(key, point)), default=MetaState.META)
        return Materialised(least, most, self._with_fixes(run) if least < most else EMPTY)

    def _with_fixes(self, run: Path) -> Path:
        """A run's outcomes with the flags they fix (what a caller or callee can read of them)."""
        return run.union(*(self._fixes(literal) for literal in run))

    def _named_meta(self, meta: Tuple[Tuple[_Key, Materialised], ...], bound: Dict[str, Value]) -> Tuple[Tuple[_Key, Materialised], ...]:
        """`ObjectFacts.meta` with each short run in the callee's terms: one note, which names the
        flags of the objects the callee receives by its parameters (`self.is_lora_enabled`)."""
        if not any(reached.short for _, reached in meta):
            return meta
        named = []
        for attrs, reached in meta:
            if reached.short:
                reached = replace(reached, short=frozenset([paths.note(self._worded(reached.short, bound))]))
            named.append((attrs, reached))
        return tuple(named)

    def _worded(self, run: Path, bound: Dict[str, Value]) -> str:
        """A run of this walk as a callee's message words it."""
        own, others = [], []
        for literal in sorted(run, key=repr):
            if self._said_by_flags(literal, run):
                continue
            if literal[0][0] == "note":
                others.append(paths.describe(literal))
                continue
            named = self._named_flags(((None, frozenset([literal])),), bound, frozenset()) if literal[0][0] == "flag" else ()
            if named:
                name, attrs, test, value = min(named[0][1], key=repr)  # by one parameter that holds it
                others.append(paths.describe(paths.flag((self.key, name, 0), attrs, value, test)))
            else:
                own.append(paths.describe(literal))
        texts = list(dict.fromkeys(text for text in others if text))
        words = " and ".join(dict.fromkeys(text for text in own if text))
        if words:
            texts.append(f"{words} (in `{self._where()}`)")
        return " and ".join(texts)

    def _said_by_flags(self, literal: paths.Literal, among: AbstractSet[paths.Literal]) -> bool:
        """Whether a test's own outcome fixes flags that `among` holds, all of them: the message
        words that test once, by its flags (`args.resume` false, not that and `if args.resume:`
        not taken)."""
        implied = self._implied.get(literal)
        return bool(implied) and implied <= among

    def _where(self) -> str:
        """This walk's function as a message names it (`Trainer.__init__`)."""
        if isinstance(self.scope, nodes.FunctionDef):
            owner = self.scope.parent
            return f"{owner.name}.{self.scope.name}" if isinstance(owner, nodes.ClassDef) else self.scope.name
        return self.scope.name if isinstance(self.scope, nodes.ClassDef) else "module level"

    def _meta_summary(self) -> Dict[MetaKey, Materialised]:
        """How far the walk took the objects it built on the meta device, and (by its own steps)
        the caller's that its context named: on every run that leaves it (at each `return`, at its
        end) and on some. A short run's flags about the caller's objects stay flags (the caller
        reads them as its own); its other outcomes become one note."""
        summary: Dict[MetaKey, Materialised] = {}
        for key in self.meta_objects:
            built = self.is_local(key[0])
            floor = MetaState.META if built else MetaState.NONE
            leaving = [kept for point, returned in self._leaving for kept in (self._kept_at(key, point, returned) if built else [point])]
            reached = [(self._least(key, point, floor, not built), point) for point in leaving]
            most = max((state for point, _ in self._leaving for _, state in self._steps_to(key, point, not built)), default=floor)
            if most == MetaState.NONE:
                continue  # a caller's object this walk did nothing to
            (least, run), point = min(reached, key=lambda found: found[0][0], default=((most, EMPTY), self.point()))
            # the run that stopped short, with the way to where it left (`if path is None: return`)
            run = run | frozenset(literal for literal in point.path if paths.decidable(literal))
            summary[key] = Materialised(least, most, self._summary_short(self._with_fixes(run)) if least < most else EMPTY)
        return summary

    def _kept_at(self, key: MetaKey, point: Point, returned: Value) -> List[Point]:
        """Where a run that leaves at `point` still holds the object the walk built as `key`: where
        the value it returns gives it as one of several, bound on some arms (`model` rebound to
        a loaded model where a directory is given), only on the runs that give it; where anything
        else holds it (an attribute, unknown code), or no option gives it, at `point`."""
        root = key[0]
        held = [guard for option, guard in guarded_options(returned) if any(obj.root == root for obj in related_objects(option))]
        if not held or not all(held) or root in self.escaped:
            return [point]
        for (owner, _), value in self.attr_env.items():
            if owner != root and any(obj.root == root for obj in related_objects(value)):
                return [point]
        return [Point(point.seq, point.path | guard) for guard in held]

    def _summary_short(self, run: Path) -> Path:
        """A short run as a summary hands it back: its flags about the caller's objects as they
        are, a test's own outcome that they describe whole, or whose flags they hold already,
        left out (one test is worded once), the rest as one note."""
        kept = {literal for literal in run if literal[0][0] == "flag" and not self.is_local(literal[0][1]) or literal[0][0] == "note"}
        rest = []
        for literal in sorted(run - kept, key=repr):
            described = self._captured.get(literal)
            if described is not None and not any(map(self.is_local, paths.roots(described))):
                kept |= described  # a test of a parameter (`if state is None: return`): the caller's object
            elif not self._said_by_flags(literal, kept):
                rest.append(literal)
        words = paths.describe_run(rest)
        return frozenset(kept | {paths.note(f"{words} (in `{self._where()}`)")} if words else kept)

    def _reregistered_in(self, base: Obj) -> FrozenSet[AttrPath]:
        """The paths of `base` (`()` for it or a module around it) whose parameters are handed to
        FSDP again once a call made here returns: by the exit of a `with` the call is inside, or
        by this walk's caller (`ObjectFacts.reregistered`)."""
        found: Set[AttrPath] = set()
        for target in self._pending_reregistrations():
            for name in self.names_of(target):
                if path_covers(name, base):
                    found.add(())
                elif path_covers(base, name):
                    found.add(anonymous_attrs(name.attrs[len(base.attrs):]))
        return frozenset(found)

    def _pending_reregistrations(self) -> List[Obj]:
        """The modules whose parameters are handed to FSDP again once a call made here returns."""
        return self._reregistered_on_return + [obj for leaving in self._exits for obj in leaving.reregistering]

    def reregistered_after(self, obj: Obj, point: Point) -> bool:
        """Whether every run through `point` hands the parameters `obj` holds then to FSDP again
        (`known_apis.FSDP_PARAM_CLASSES`): later in this walk, or, by its calling context, once it
        returns (a helper that replaces a weight inside a library's `with` that re-registers it).
        A parameter replaced after `fully_shard` is then managed: sharded, its gradient reduced."""
        found = self.canonical(obj)
        if any(self.contains(target, found) for target in self._reregistered_on_return):
            return True
        return any(
            event.seq > point.seq and event.path <= point.path and self.contains(event.target, found)
            for event in self.reregistrations
        )

    def _forwarded_in(self, base: Obj) -> FrozenSet[AttrPath]:
        """The paths of `base` (`()` for it or a module around it) that ran a forward after
        their sharding on a path to here, as `ObjectFacts.forwarded` hands them on."""
        here = self.point()
        found: Set[AttrPath] = set()
        for at, called in self.forwards:
            if self.happens_before(at, here) and self._forward_after_shard(called, at):
                for name in self.names_of(called):
                    if path_covers(base, name):
                        found.add(anonymous_attrs(name.attrs[len(base.attrs):]))
                    elif path_covers(name, base):
                        found.add(())
        return frozenset(found)

    def _informative(self, value: Value) -> bool:
        """Whether a stored value tells a callee more than the bare attribute would: an object of
        known class, on the meta device or built elsewhere, an optimizer, a sharding function, a
        full state dict...
        (the rest would only multiply the contexts a method is analysed in)."""
        for option in options_of(value):
            if isinstance(option, Obj):
                if option.cls or self.meta_object(option, inside=True) is not None or self.is_local(option.root) or option.root in self.classes:
                    return True
                if self.deferred_module(self.canonical(option)) is not None:
                    return True  # a result of code not entered: a method called on it is a call into that code
            elif isinstance(option, (Optimizer, ShardFunction, Options, StateDict, *WHOLE_STATES, Params, Container, Partial)) or travels(option):
                return True  # (a function stored on it: what a call of the attribute runs)
        return False

    def _display_name(self) -> str:
        if isinstance(self.scope, nodes.FunctionDef):
            return f"{self.scope.name}()"
        return f"`{self.scope.name}`'s methods" if isinstance(self.scope, nodes.ClassDef) else "module level"

    def _drive_lifecycle(self, cls: nodes.ClassDef) -> None:
        """A class whose framework documents the order of its hooks is walked as that framework
        drives one object of it: `__init__`, then each hook in order."""
        receiver = Obj((scope_key(cls), "self", 0), cls=self.project.class_qname(cls))
        for method in self.project.lifecycle(cls):
            self.drive(method, receiver)

    def drive(self, method: nodes.FunctionDef, receiver: Obj) -> None:
        """Apply `receiver.method()` as a framework calls it (no arguments known)."""
        self._apply_summary(method, method, receiver, [], {})

    def context_for_method(self, method: nodes.FunctionDef, receiver: Obj) -> Tuple[Context, Dict[str, Origin]]:
        """The context in which `receiver.method(...)` would run here."""
        return self._context_for(method, self._bound_arguments(method, receiver, [], {}), method)

    def _apply_summary(
        self, node: nodes.NodeNG, func: nodes.FunctionDef, receiver: Optional[Obj], args: List[Value], keywords: Dict[Optional[str], Value],
        at_exit: bool = False,
    ) -> Value:
        """What calling `func` does here; with `at_exit`, what a `@contextmanager` does after its
        `yield`, where the `with` block that `node` entered ends."""
        if not at_exit:
            choices = self._choice_arguments(func, receiver, args, keywords)
            if choices:
                return self._apply_per_choice(node, func, receiver, args, keywords, choices)
        bound = self._bound_arguments(func, receiver, args, keywords)
        context, origins = self._context_for(func, bound, node)
        context = self.project.widen(func, context)
        if func is not self.scope:
            self.calls.add(scope_key(func))
        summary = self.project.summary(func, context, origins)
        entering = summary is not None and summary.exit is not None and not at_exit and syntax.entered_by_with(node)
        if summary is not None:
            self.deferred |= summary.deferred
            if summary.exit is not None and at_exit:
                summary = summary.exit
        if self.listener is not None and len(self.chain) < MAX_RULE_DEPTH and not at_exit:
            self.listener.on_callee(self, node, func, context, origins, self._handed_objects(func, bound, origins))
        if summary is None:
            self._escape(args, keywords)
            if receiver is not None:
                self.escaped.add(receiver.root)
            return Fresh(None)
        for what, at in summary.collectives:
            self._issued(node, what, at)
        by_root: Dict[Root, Value] = {}
        for name, value in bound.items():
            root = _param_root(func, name)
            if root == summary.self_root or root in summary.param_roots.values():
                by_root[root] = self.canonical(value) if isinstance(value, Obj) else value
                if isinstance(value, Obj) and root != summary.self_root:
                    self.project.add_alias(root, value)
                elif isinstance(value, Obj):
                    self.project.add_receiver(root, self.canonical(value))
        seq = self._tick()
        mapper = RootMapper(by_root, summary.key, self.key, seq, self.project)
        if entering:
            reregistering = tuple(self.canonical(t) for e in summary.exit.reregistrations for t in mapper.objs(e.target))
            self._exits.append(_Exit(node, func, receiver, args, keywords, self.path, reregistering))
        sharded = []
        # the flags the call rebinds: its events' flags of them are of the new versions (`summary`),
        # this walk's of the old ones; by the constants it wrote, where its walk knew them
        rebound = {(owner.root, owner.attrs) for owner, _ in summary.rebinds}
        writes = [(owner, _written(value)) for owner, value in summary.attr_writes if (owner.root, owner.attrs) not in rebound]
        rewritten: Set[Tuple[Root, AttrPath]] = set()
        for owner, written in list(summary.rebinds) + writes:
            for target in mapper.objs(owner) if owner.attrs else ():
                rewritten.add(self._rebind_flag(Obj(target.root, target.attrs[:-1]), target.attrs[-1], written, seq))
        for event in summary.events:
            mapped = _mapped_flags(event.path, mapper, self.canonical)
            mapped |= self._given_on(mapped, rewritten)
            for target, given in mapper.guarded_objs(event.target):  # each on the runs that choose it (`_chosen`)
                target = self.canonical(target)
                sharded.append(target)
                self.events.append(ShardEvent(
                    target, node, seq, guarded=event.guarded or bool(_conditions(event)), path=_made_on(self.path, target) | mapped | paths.choices(given),
                    inner=(event.seq,) + event.inner,
                ))
        self._made_fsdp_modules(sharded)
        initialised: Optional[Point] = None  # after the call's shard events: its forwards that followed one
        for called, after_shard in summary.forwards:
            if after_shard and initialised is None:
                initialised = Point(self._tick(), self.path)
            for target in mapper.objs(called):
                self.forwards.append((initialised if after_shard else Point(seq, self.path), self.canonical(target)))
        for event in summary.replacements:
            for target in mapper.objs(event.target):
                self.replacements.append(ShardEvent(self.canonical(target), node, seq, path=self.path, inner=(event.seq,) + event.inner))
        for event in summary.reregistrations:
            for target in mapper.objs(event.target):
                self.reregistrations.append(ShardEvent(self.canonical(target), node, seq, path=self.path, inner=(event.seq,) + event.inner))
        self._rebuilt_by_call(summary.rebuilds, mapper, node, seq, bound)
        for obj in summary.compiled:
            for target in mapper.objs(obj):
                found = self.canonical(target)
                self.compiled.add((found.root, found.attrs))
        for root in summary.escaped:
            mapped = by_root.get(root)
            for obj in related_objects(mapped) if mapped is not None else ():
                self.escaped.add(obj.root)
        for owner, value in summary.attr_writes:
            for target in mapper.objs(owner):
                if target.attrs or is_global(target.root):
                    if not target.attrs:
                        self._rebound_globals.add(target.root)
                    stored = self.attr_env[(target.root, target.attrs)] = _with_inputs(value, mapper.value(value, node))
                    self._attr_version += 1
                    self._stored_at[(target.root, target.attrs)] = seq
                    self._learn_classes(stored)
                    self._store(stored)  # held by an object of this walk, as `x.a = obj` here holds it
        for (root, attrs), reached in summary.meta_states.items():
            outer = root == summary.self_root or root in summary.param_roots.values()
            built = not outer and root[0] == summary.key  # on meta by the call (else this walk's, as the context said)
            if outer and root not in by_root:
                continue
            # the callee's short run in this walk's terms: its flags by this walk's objects; one about
            # a value this walk passed but cannot name, or computed itself (`state is None` of
            # `load(model, torch.load(path))`), is unknown here: the callee went as far as `most`
            short = [self._named_outcome(literal, mapper) if literal[0][0] == "flag" else literal for literal in reached.short]
            least = reached.most if None in short else reached.least
            for mapped in mapper.objs(Obj(root, attrs)):
                if built:
                    found = self.canonical(mapped)
                    self._built_on_meta((found.root, found.attrs))
                if least > MetaState.META:
                    self._advance(mapped, least)
                for outcome in short if reached.most > least else ():
                    self._advance(mapped, reached.most, frozenset([(outcome[0], not outcome[1])]))  # type: ignore[index]
        result = self._returned_value(summary.returns, mapper, node, rewritten)
        if containers.params_taken(result) == seq:  # a list of parameters the callee collected
            self._collections[seq] = node
        self._plain.update(mapped.root for root in summary.plain for mapped in mapper.objs(Obj(root)) if not mapped.attrs)
        if isinstance(result, Truth):
            result = truths.mapped(result, lambda literal: self._mapped_choices(literal, mapper))
        self._learn_classes(result)
        built_here = {id(o.node) for o in summary.optimizers} if isinstance(node, nodes.Call) else set()
        for name, optimizer in summary.handoffs:
            mapped = mapper.value(optimizer, node)
            if isinstance(mapped, Optimizer):
                where = node if id(optimizer.node) in built_here else mapped.node  # as the caller knows it (below)
                self.handoffs.append((Point(seq, self.path), name, Optimizer(mapped.over, where, mapped.cls_name)))
        for optimizer in summary.optimizers:
            # built by the call (kept on an object or returned): here, the call is where it was built
            mapped = mapper.value(optimizer, node)
            if isinstance(mapped, Optimizer):
                where = node if isinstance(node, nodes.Call) else optimizer.node  # a hook has no call site
                self.optimizers.append(OptimizerBuilt(seq, Optimizer(tuple(self.canonical(o) for o in mapped.over), where, optimizer.cls_name), self.path))
        return result if not isinstance(result, Unknown) else Fresh(None)


    def _returned_value(
        self, returned: Value, mapper: RootMapper, node: nodes.NodeNG, rewritten: AbstractSet[Tuple[Root, AttrPath]], depth: int = 0,
    ) -> Value:
        """What a call returns, in this walk's terms: where the callee knew the runs on which
        each option is returned (`return text_model` on one arm, `return wrapper` on the other),
        the option keeps those runs, its literals mapped as a callee's flags are (those with no
        meaning here dropped: fewer outcomes, runs known less), with what this walk knows of the
        runs on which its flags hold (`_given_on`; `rewritten`: the attributes the call rebinds).
        So does each item of a dict or list it returns (`{"state_dict": task.state_dict()}`,
        a full state dict where the task's flag says it sharded, the module's own elsewhere)."""
        if isinstance(returned, Container) and depth < _MAX_RETURNED_DEPTH:
            items = tuple(self._returned_value(item, mapper, node, rewritten, depth + 1) for item in returned.items)
            return Container(items, returned.keys, returned.exact)
        if not (isinstance(returned, Either) and returned.guards) or depth >= _MAX_RETURNED_DEPTH:
            return mapper.value(returned, node)
        options = []
        for option, guard in guarded_options(returned):
            mapped = frozenset(filter(None, (self._mapped_literal(literal, mapper) for literal in guard)))
            options.append((self._returned_value(option, mapper, node, rewritten, depth + 1), mapped | self._given_on(mapped, rewritten)))
        return guarded(options)

    def _given_on(self, flags: Path, rewritten: AbstractSet[Tuple[Root, AttrPath]] = frozenset()) -> Path:
        """What the runs on which attributes pass the tests of `flags` (a callee's, mapped here)
        say besides: where this walk holds an attribute as one of several values, each given on
        runs outcomes about objects tell apart (`cfg.fsdp2`, an object where `FSDP_VERSION` is
        "2", None elsewhere; `self._fsdp_enabled`, True where `args.fsdp` held and a helper set
        it, False elsewhere), an outcome is that of the options that give it, and the outcomes
        they all share hold too. Not of the attributes the call rebinds (`rewritten`): the
        callee's flags of them are about what it wrote, not about what this walk holds."""
        found: Set[paths.Literal] = set()
        for root, attrs, test, value in paths.flags(flags):
            options = guarded_options(self.attr_env.get((root, attrs), UNKNOWN)) if attrs and (root, attrs) not in rewritten else ()
            if len(options) < 2:
                continue
            unchanged = Obj(root, attrs)  # what it held before, on the runs of an arm that did not write it (`_join`)
            present = test == paths.TRUTH and all(
                isinstance(option, Obj) and option != unchanged or isinstance(option, Constant) and option.value is None for option, _ in options
            )
            # the runs of the options that may give the outcome: an object or None is tested for
            # presence (`test_flags`), a constant as Python finds it, anything else may give it
            passing = [(isinstance(option, Obj) if present else _constant_passes(option, test), _telling(guard)) for option, guard in options]
            given = [telling for passes, telling in passing if passes in (value, None)]
            if given and all(given):
                found |= frozenset.intersection(*given)
            # and none of the runs of an option that cannot give it (`self._fsdp_enabled` false:
            # not the runs that took the arm where `prepare_fsdp()` set it, whatever the others are)
            found.update(paths.dead(telling) for passes, telling in passing if passes is (not value) and telling)
        return frozenset(found)

    def _named_outcome(self, flag: paths.Literal, mapper: RootMapper) -> Optional[paths.Literal]:
        """A callee's flag as an outcome of this walk's runs: about an input (a parameter, an
        attribute of an object: `cfg.init_from`), not about a value this walk computed, whose
        truth no test here decides (None)."""
        mapped = self._mapped_literal(flag, mapper)
        if mapped is None or not mapped[0][2] and self.is_local(mapped[0][1]):  # type: ignore[misc]
            return None
        return mapped

    def _mapped_literal(self, literal: paths.Literal, mapper: RootMapper) -> Optional[paths.Literal]:
        """A callee's literal about objects in this walk's terms (objects by what they are here);
        None where it has none: about the callee's texts, or an object held as one of several."""
        found = self._mapped_choices(literal, mapper)
        return next(iter(found[0])) if len(found) == 1 and len(found[0]) == 1 else None

    def _mapped_choices(self, literal: paths.Literal, mapper: RootMapper) -> truths.Alternatives:
        """A callee's literal about objects in this walk's terms: a conjunction for each object it
        is about here, where an argument is one of several objects each on the runs that choose
        it (`_chosen`), with that choice; none where it has no such terms (the callee's texts, an
        object held as one of several that no choice tells apart)."""
        atom, value = literal
        if paths.choices(frozenset([literal])):
            return (frozenset([literal]),)  # which object a name of a walk is: that walk's, whoever reads it
        if atom[0] == "dead":
            inner = [self._mapped_literal(item, mapper) for item in atom[1]]  # type: ignore[union-attr]
            return () if None in inner else (frozenset([paths.dead(frozenset(inner))]),)  # type: ignore[arg-type]
        sides = [atom[1:3]] if atom[0] == "flag" else list(atom[1:]) if atom[0] == "same" else []
        if not sides:
            return ()
        combinations: List[Tuple[Tuple[Obj, ...], Path]] = [((), EMPTY)]
        for root, attrs in sides:  # type: ignore[misc]
            found = mapper.guarded_objs(Obj(root, attrs))
            options = [(self.canonical(obj), paths.choices(guard) if len(found) > 1 else EMPTY) for obj, guard in found]
            if not options or len(options) > 1 and not all(chosen for _, chosen in options):
                return ()
            combinations = [(objects + (obj,), taken | chosen) for objects, taken in combinations for obj, chosen in options if paths.compatible(taken, chosen)]
        found_paths = []
        for objects, taken in combinations:
            if atom[0] == "flag":
                found_paths.append(taken | {paths.flag(objects[0].root, objects[0].attrs, value, atom[3])})  # type: ignore[arg-type]
            else:
                found_paths.append(taken | {paths.same((objects[0].root, objects[0].attrs), (objects[1].root, objects[1].attrs), value)})
        return tuple(found_paths)

    def _learn_classes(self, value: Value) -> None:
        """The classes of the objects a call built and handed back, returned or stored on an
        object of this walk (`self.model = LM()` in a constructor): they are this walk's objects."""
        for obj in objects_in(value):
            if obj.cls and not obj.attrs and self.is_local(obj.root):
                self.classes.setdefault(obj.root, obj.cls)


def _described_by_options(
    value: Value, answers: Sequence[Optional[bool]], deciding: Sequence[Tuple[Optional[Path], Optional[Path]]] = (),
) -> Value:
    """A test whose answer each option of `value` settles (`answers`, in order), as the runs
    that give each option: true where the run gives one that passes, false where it gives one
    that fails (`isinstance(cfg, FSDP2Options)`, `cfg` FSDP2's options where `FSDP_VERSION` is
    "2"). An option whose answer is not settled is described where flags of objects decide the
    test of it whole (`deciding`: of each option, those that make it true and those that make it
    false): true where the run gives it with the first, false with the second
    (`isinstance(model, FSDPModule)` of the module one arm of a helper sharded, `model` being it
    or the DDP wrapper the other arm built). So for any test told apart per option: an arm of it
    is on no run that gives an option it excludes (`truths.arm_literals`), and a `return` in
    it on the runs of the options that take it (`_capture`), which a caller keeps. Unknown where
    an answer is neither settled nor decided, or an option's runs are told apart by nothing a
    caller or a callee reads, or not from another option's: one run may take both (two objects
    one attribute held, `self.model` as the module and as the DDP wrapper stored back into it,
    are one choice), and what holds of one would be said of the other's runs."""
    options = guarded_options(value)
    telling = [_telling(guard) for _, guard in options]
    if not all(telling) or any(paths.compatible(a, b) for index, a in enumerate(telling) for b in telling[index + 1:]):
        return UNKNOWN
    when: Tuple[List[Path], List[Path]] = ([], [])
    for index, answer in enumerate(answers):
        if answer is not None:
            when[0 if answer else 1].append(telling[index])
            continue
        flags = deciding[index] if index < len(deciding) else (None, None)
        if flags[0] is None or flags[1] is None:
            return UNKNOWN
        when[0].append(telling[index] | flags[0])
        when[1].append(telling[index] | flags[1])
    return Truth(tuple(when[0]), tuple(when[1]))


def _constant_passes(option: Value, test: paths.Test) -> Optional[bool]:
    """Whether a value passes a flag's test where it is a constant; None for other values."""
    return paths.passes(option.value, test) if isinstance(option, Constant) else None


def _negations_removed(test: nodes.NodeNG, taken: bool) -> Tuple[nodes.NodeNG, bool]:
    """`not x` taken is `x` not taken."""
    while isinstance(test, nodes.UnaryOp) and test.op == "not":
        test, taken = test.operand, not taken
    return test, taken


def _with_inputs(given: Value, mapped: Value) -> Value:
    """A value a callee stored on an object (`cfg.fsdp2`), mapped (`mapped`), with the tests of
    the run's inputs that give each of its options (`given`, the callee's): they mean the same
    here, and the callee's other outcomes are not mapped (stores are many; returns carry them)."""
    if not isinstance(given, Either) or not any(map(environment.about_inputs, given.guards)) or len(options_of(mapped)) != len(given.options):
        return mapped
    return guarded([(option, environment.about_inputs(guard)) for option, (_, guard) in zip(options_of(mapped), guarded_options(given))])


def _telling(guard: Path) -> Path:
    """What in a value's guard tells its option apart where a caller or a callee reads it: the
    choice of a name bound to several objects, and the outcomes about objects (flags)."""
    return paths.choices(guard) | frozenset(literal for literal in guard if paths.about_objects(literal))


def _shared(alternatives: Optional[truths.Alternatives]) -> Path:
    """The outcomes every way to a `return` takes (none where the ways are unknown)."""
    return frozenset.intersection(*alternatives) if alternatives else EMPTY


def _made_fsdp_module(target: Obj) -> Path:
    """What `fully_shard(target)` makes true: the module is an `FSDPModule`, an item of a list
    (`blocks[*]`, the one a loop binds) as a test of it finds it (a member, a module named at run
    time, is one of several: nothing is said of any one of them)."""
    return EMPTY if any(map(is_member, target.attrs)) else frozenset([paths.fsdp_module(target.root, target.attrs)])


def _written(value: Value) -> Written:
    """The constants `value` may be, as written to an attribute (`Written`)."""
    options = options_of(value)
    return tuple(option.value for option in options) if options and all(isinstance(option, Constant) for option in options) else None  # type: ignore[union-attr]


def _may_change(literal: paths.Literal, written: Written) -> bool:
    """Whether writing one of the constants `written` to its attribute may change a flag outcome."""
    (_, _, _, test), value = literal  # type: ignore[misc]
    return written is None or any(paths.passes(constant, test) != value for constant in written)


def _made_on(path: Path, target: Obj) -> Path:
    """The path of `fully_shard(target)` made on `path`: `target` is an `FSDPModule` after it,
    whatever a test before it found."""
    made = _made_fsdp_module(target)
    if not made:
        return path
    (atom, _), = made
    return (path - {(atom, False)}) | made if path else made


def _conditions(event: ShardEvent) -> Path:
    """The branch outcomes on the way to a shard event, without what the event itself makes true."""
    return event.path - _made_fsdp_module(event.target) if event.path else event.path


def _shards_exactly(event: ShardEvent, names: List[Obj]) -> bool:
    """Whether `event` shards that very module, not one of several a wildcard stands for."""
    target = event.target
    return not any(map(is_wildcard, target.attrs)) and any(name.root == target.root and name.attrs == target.attrs for name in names)


class _Exit(NamedTuple):
    """A `with` entered a `@contextmanager` of the tree: the call, to apply again where its block ends."""

    call: nodes.NodeNG
    func: nodes.FunctionDef
    receiver: Optional[Obj]
    args: List[Value]
    keywords: Dict[Optional[str], Value]
    path: Path
    reregistering: Tuple[Obj, ...] = ()  # the modules whose parameters its exit hands to FSDP again, as it was entered


def _latest(rebuilds: List[Rebuild]) -> List[Rebuild]:
    """One rebuild per optimizer, modules and path: the last (a shard before an earlier one is
    before it too), so that a summary does not carry every rebuild of every pass and callee."""
    latest: Dict[Tuple[Value, Tuple[Obj, ...], Path], Rebuild] = {}
    for rebuild in rebuilds:
        key = (rebuild.target, rebuild.over, rebuild.path)
        if key not in latest or rebuild.position > latest[key].position:
            latest[key] = rebuild
    return list(latest.values())


def _reached(attributes: Dict[Root, List[Tuple[AttrPath, Value]]], held: List[Value]) -> List[Tuple[Obj, Value]]:
    """The attributes of the function's own objects that its caller can reach through the values
    it gets back (a NamedTuple returned, a holder stored on `self`), transitively."""
    found: List[Tuple[Obj, Value]] = []
    pending = [obj.root for value in held for obj in related_objects(value)]
    seen: Set[Root] = set()
    while pending:
        root = pending.pop()
        if root in seen or root not in attributes:
            continue
        seen.add(root)
        for attrs, value in attributes[root]:
            found.append((Obj(root, attrs), value))
            pending.extend(obj.root for obj in related_objects(value))
    return found


def _join_maps(maps: List[Dict], runs: List[Path], absent: Optional[Callable[[Tuple[Root, AttrPath]], Value]] = None) -> Dict:
    """Bindings where arms meet: most are the same object in every arm (copied from one start),
    so only the keys whose values differ are joined, each value on the runs of the arms that
    bound it (`runs`: each arm's own branch outcomes). A key an arm lacks is, with `absent`, what
    `absent(key)` says it holds there; without, unbound there (a variable bound on one arm)."""
    joined = dict(maps[0])
    differing = []
    for mapping in maps[1:]:
        for key, value in mapping.items():
            current = joined.get(key, _ABSENT)
            if current is value:
                continue
            if current is _ABSENT and absent is None:
                joined[key] = value
            else:
                differing.append(key)
    if absent is not None:
        differing.extend(key for key in maps[0] if any(key not in mapping for mapping in maps[1:]))
    for key in dict.fromkeys(differing):
        held = [(mapping[key] if key in mapping else absent(key), arm) for mapping, arm in zip(maps, runs) if absent is not None or key in mapping]  # type: ignore[misc]
        joined[key] = guarded(held) if any(runs) else either([value for value, _ in held])
    return joined


_ABSENT = object()
_MAX_RETURNED_DEPTH = 6  # how deep in what a call returns its guards are mapped (as `RootMapper.value` maps values)


_BUILTINS = frozenset(dir(builtins))
# builtins that read all of an iterable now into a new collection (`filter`, `iter`, `reversed` read lazily)
_COLLECTING_BUILTINS = frozenset({"list", "tuple", "sorted", "set"})
# Combinations of configurations a call is applied with, one each (`Flow._choice_arguments`).
_MAX_CHOICES = 8
_KEY_CHANGES = frozenset({"update", "pop", "popitem", "setdefault", "clear", "remove"})  # what changes a dict's keys or a list's items
_GROWTHS = frozenset({"append", "extend", "insert"})  # what adds items to a list
_CONTAINER_CHANGES = _KEY_CHANGES | _GROWTHS  # what `_container_method` applies to the list or dict


def _is_builtin(binding: Optional[nodes.NodeNG]) -> bool:
    return binding is None or binding.root().name == "builtins"


def _names_imported_module(expr: nodes.NodeNG, binding: Callable[[nodes.Name], Optional[nodes.NodeNG]]) -> bool:
    """Whether `expr` (`utils`, `pkg.utils`) starts with a name an import binds."""
    while isinstance(expr, nodes.Attribute):
        expr = expr.expr
    return isinstance(expr, nodes.Name) and isinstance(binding(expr), (nodes.Import, nodes.ImportFrom))


def _is_shard_partial(value: nodes.NodeNG, flow: Flow) -> bool:
    return (
        isinstance(value, nodes.Call)
        and flow.qualified_name(value.func) in PARTIAL
        and bool(value.args)
        and flow.shards(flow.qualified_name(value.args[0]))
    )


MAX_AVOIDING = 8  # the runs an initialisation is kept on past later `to_empty`s (`_avoiding`)


def _avoiding(path: Path, later: List[Path]) -> List[Path]:
    """The runs through `path` that take none of the `later` paths whole, each as the outcomes it
    takes: one per outcome of a later path whose opposite it takes (an initialisation that a
    `to_empty` on `if c:`'s arm undoes holds on the runs where `c` is false). A run left with no
    such outcome to take (a later path it takes whole, or a dead literal) is none of them; past
    `MAX_AVOIDING` runs the rest are dropped, as if undone."""
    runs = [path]
    for other in later:
        found = []
        for run in runs:
            if not paths.compatible(run, other):
                found.append(run)
                continue
            found.extend(run | {(atom, not taken)} for atom, taken in sorted(other - run, key=repr) if atom[0] != "dead")
        runs = list(dict.fromkeys(found))[:MAX_AVOIDING]
    return runs


def _mapped_flags(path: Path, mapper: RootMapper, canonical: Callable[[Obj], Obj]) -> Path:
    """A callee's flag literals in the caller's terms (the literals about its own texts mean
    nothing there), each attribute by the object it is in the caller (`canonical`: a copy of a
    flag is the flag); a flag of an object the caller may hold as several is dropped."""
    if not paths.flag_literals(path):
        return EMPTY
    mapped = []
    for root, attrs, test, value in paths.flags(path):
        objs = mapper.objs(Obj(root, attrs))
        if len(objs) == 1:
            flag = canonical(objs[0])
            mapped.append(paths.flag(flag.root, flag.attrs, value, test))
    return frozenset(mapped)


def _narrowed(state: _State, narrowed: Tuple[str, List[Tuple[Value, Path]], List[Tuple[Value, Path]]]) -> Tuple[_State, _State]:
    """`state` for each arm of a test that told the values of a name apart, the name bound to
    those that take the arm (each with its guard), and the outcomes that all of those share
    (the choice of the one option left, the flag the test fixed of it: every run that gives an
    option takes its guard) on the arm's path, so that what was done on the other runs
    (`fully_shard` of the blocks where `model` is an `FSDPModule`) is not done there."""
    name, then, orelse = narrowed
    bound = state.env.get(name, UNKNOWN)
    found = []
    for options in (then, orelse):
        kept = guarded(options)
        given = frozenset.intersection(*(_telling(guard) for _, guard in options))
        found.append(_State({**state.env, name: kept}, state.attr_env, state.path | _not_chosen(bound, kept) | given))
    return found[0], found[1]


def _not_chosen(bound: Value, kept: Value) -> Path:
    """What the runs on an arm do not do with the options of a name its test told apart: give
    an option the test ruled out, or give one without the outcomes the arm fixed of it
    (`isinstance(model, FSDPModule)` false: that option's `FSDPModule` flag), each option named
    by its choices (`paths.choices`), which every run that gives it makes. Other names bound to
    the same options on those choices (`inner = unwrap(model)` before the test, a state dict of
    `model`) are narrowed with it: what is asked of them on the runs of an option
    (`may_hold_shards(..., runs=)`) holds only where the arm's outcomes do."""
    left = dict(guarded_options(kept))
    found: Set[paths.Literal] = set()
    for option, guard in guarded_options(bound):
        chosen = paths.choices(guard)
        if not chosen:
            continue
        if option not in left:
            found.add(paths.dead(chosen))
            continue
        found.update(paths.dead(chosen | {(atom, not taken)}) for atom, taken in left[option] - guard if atom[0] in ("flag", "same"))
    return frozenset(found)


def _passed_expressions(func: nodes.FunctionDef, call: nodes.Call) -> Iterator[Tuple[str, nodes.NodeNG]]:
    """(parameter name, the expression a call passes for it), as Python binds them (a method
    called on an object: its receiver is the first parameter)."""
    arguments = func.args
    positional = [a.name for a in list(arguments.posonlyargs or []) + list(arguments.args or [])]
    if isinstance(func.parent, nodes.ClassDef) and not syntax.is_staticmethod(func) and isinstance(call.func, nodes.Attribute):
        positional = positional[1:]
    for name, expr in zip(positional, call.args or []):
        if isinstance(expr, nodes.Starred):
            return
        yield name, expr
    for keyword in call.keywords or []:
        if keyword.arg is not None:
            yield keyword.arg, keyword.value


def _condition_path(scope: nodes.NodeNG, conditions: FlagConditions) -> Path:
    """The flag literals of a calling context's conditions, about the parameters of `scope` or
    the caller's objects it reaches as they are."""
    if not conditions or not isinstance(scope, nodes.FunctionDef):
        return EMPTY
    return frozenset(
        paths.flag(_param_root(scope, holder) if isinstance(holder, str) else holder, attrs, value, test)
        for holder, attrs, test, value in conditions
    )


def _splatted(value: Value) -> Optional[List[Tuple[str, Value]]]:
    """The keyword arguments `**value` passes, where it is one dict whose keys are known
    constants (`save(step=step, **self.training_state)`, a property returning a dict literal);
    None where what it holds is not known."""
    found = options_of(value)
    if len(found) != 1 or not isinstance(found[0], Container) or not found[0].named:
        return None
    return [(key, item) for key, item in zip(found[0].keys, found[0].items) if isinstance(key, str)]  # type: ignore[arg-type]


def _handed(value: Value) -> Value:
    """A value as a calling context hands it to a callee (`anonymous`), each option with the
    choice that gives it (`Flow._chosen`) and the outcomes about the run's inputs on the way to
    it (`environment.about_inputs`), so that what the callee finds of each option is found on
    the caller's runs that give it; the caller's other branch outcomes stay its own."""
    if isinstance(value, Optimizer) and value.runs:
        # an optimizer over a model bound on two arms holds each on the runs of its choice there too
        runs = tuple(map(_handed_outcomes, value.runs))
        return replace(anonymous(value), runs=runs if any(runs) else ())  # type: ignore[type-var]
    if not isinstance(value, Either) or not any(map(_handed_outcomes, value.guards)):
        return anonymous(value)
    return guarded([(anonymous(option), _handed_outcomes(guard)) for option, guard in guarded_options(value)])


def _handed_outcomes(guard: Path) -> Path:
    """The outcomes of a guard that mean the same in a callee: which object a name of a walk is,
    and the tests of the run's inputs."""
    return paths.choices(guard) | environment.about_inputs(guard)


def _within(holders: List[Tuple[Obj, str]], inside: Callable[[Obj, Obj], Optional[AttrPath]]) -> Tuple[Tuple[str, str, AttrPath], ...]:
    """`Context.within`: each object argument that lies inside another (`inside`: the path below
    it) by a path of named attributes, as the nearest one holds it (of one object passed twice,
    the later parameter's is the earlier's, by name)."""
    found = []
    for inner, name in holders:
        nearest = min(
            ((attrs, holder) for outer, holder in holders if holder != name for attrs in (inside(inner, outer),)
             if attrs is not None and not any(map(is_wildcard, attrs)) and (attrs or holder < name)),
            key=lambda item: (len(item[0]), item[1]), default=None,
        )
        if nearest is not None:
            found.append((name, nearest[1], nearest[0]))
    return tuple(sorted(found))


def _param_root(func: nodes.FunctionDef, name: str) -> Root:
    """The root a parameter is bound to in `func`'s walks: `self` is the class's object."""
    if syntax.is_instance_method(func) and name == syntax.first_param(func):
        return (scope_key(func.parent), "self", 0)
    return (scope_key(func), name, 0)


