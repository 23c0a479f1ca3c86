"""What crosses a call: the facts a caller hands a callee about the objects it passes (the calling
context), and what the callee hands back (its summary, in terms of its parameters).

A function is analysed once per distinct context (memoised by the abstract arguments, as in
context-sensitive summary analyses): `train_step(model, ...)` called with a sharded model is
analysed with `model` sharded, and called with a plain one, with it plain. An entry point (a
function no caller in the tree reaches) is analysed with parameters about which nothing is known,
so the rules that need to know stay silent there.
"""

from __future__ import annotations

import sys
import zlib
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, AbstractSet, Dict, FrozenSet, List, Optional, Sequence, Tuple, Union

from astroid import nodes

from fsdp_lint.analysis.paths import EMPTY, Path, Test
from fsdp_lint.analysis.values import (
    UNKNOWN, Container, Either, Iterable, Obj, Optimizer, Params, Root, StateDict, Value, either, guarded_options, member, options_of,
)

if TYPE_CHECKING:
    from fsdp_lint.analysis.project import Project

AttrPath = Tuple[str, ...]
# (holder, attribute path, test, outcome): the holder is a parameter's name, or a caller's object
# that the callee reaches as it is (one of several a parameter may be), by its root
FlagConditions = FrozenSet[Tuple[Union[str, "Root"], AttrPath, Test, bool]]
ABOVE: AttrPath = ("..",)  # in `ObjectFacts.sharded`: a module that contains the object is sharded


@dataclass(frozen=True, slots=True)
class Origin:
    """How an object reached the function being analysed: where it was sharded, in which
    function, and the calls that passed it on (outermost first). Used in messages and SARIF."""

    shard: nodes.NodeNG
    scope: str
    calls: Tuple[Tuple[nodes.Call, str], ...] = ()  # each call site, with the name of the function it calls

    def passed(self, call: nodes.Call, callee: str) -> "Origin":
        return Origin(self.shard, self.scope, self.calls + ((call, callee),))


class MetaState(IntEnum):
    """How far an object built on the meta device got toward holding real values, in order. At a
    point it is asked both ways: the furthest some run got (`Flow.meta_state`), and how far every
    run got (`Flow.materialised`: loaded on one arm of `if ckpt:` only, it is not initialised
    after the join)."""

    NONE = 0  # not built on the meta device
    META = 1  # built on it: no storage
    EMPTY = 2  # `to_empty`: storage, uninitialised memory
    INITIALISED = 3  # initialised or loaded, or handed to code that may have done it


@dataclass(frozen=True, slots=True)
class Materialised:
    """How far an object built on the meta device got, as a caller hands it to a callee or a
    callee's summary hands it back: on every run (`least`), on some run (`most`), and the
    outcomes of a run that stopped at `least` (`short`: in the receiver's terms where they are
    about objects, flags; else notes that say how a message words them)."""

    least: MetaState
    most: MetaState
    short: Path = EMPTY


@dataclass(frozen=True, slots=True)
class ObjectFacts:
    """What the caller knows of one object it passes: its class, which paths inside it are
    sharded (`ABOVE` for a module above it), how far it and the objects it holds got from the
    meta device, and the values of its attributes."""

    cls: Optional[str] = None
    sharded: FrozenSet[AttrPath] = frozenset()
    # the objects built on the meta device that it is (`()`) or holds (`("model",)`), with how far each got
    meta: Tuple[Tuple[AttrPath, Materialised], ...] = ()
    attrs: Tuple[Tuple[AttrPath, Value], ...] = ()
    # the flags every run that sharded a path fixed, as attributes of the callee's parameters:
    # `(("model",), {("self", ("world_mesh",), (), True)})` (`fsdp_lint.analysis.flags`)
    conditions: Tuple[Tuple[AttrPath, "FlagConditions"], ...] = ()
    # the sharded paths that every run to the call passed `fully_shard` of itself: `FSDPModule`s
    # there (`isinstance(model, FSDPModule)` is true), where the others only may be
    certain: FrozenSet[AttrPath] = frozenset()
    # the paths (`()` for the object, or a module around or inside it) that ran a forward after
    # their sharding: FSDP's lazy initialisation is over for them (`Flow.ran_forward`)
    forwarded: FrozenSet[AttrPath] = frozenset()
    # the paths (`()` for the object) that hold the result of a call into a module the flows do
    # not enter, with that module: a method called on one (`self.checkpointer.save(self.model)`)
    # is a call into it, which the callee defers as the caller would (`Flow.deferred_module`)
    deferred: Tuple[Tuple[AttrPath, str], ...] = ()
    # the paths (`()` for the object) that `torch.compile` returned on some run to the call: an
    # `OptimizedModule` there may be what the caller holds (`Flow.compiled`)
    compiled: FrozenSet[AttrPath] = frozenset()
    # the paths (`()` for the object or a module around it) whose parameters the caller hands to
    # FSDP again once the call returns, on every run (the exit of a `with` the call is inside
    # builds their `FSDPParam`s): a parameter the callee replaces there is managed (`Flow.reregistered_after`)
    reregistered: FrozenSet[AttrPath] = frozenset()
    # the sharded paths (`ABOVE` among them) matched only through a name given at run time
    # (`getattr(module, name)` of a module inside a sharded tree, an item of `modules()`, another
    # lookup's module): the object there may be the sharded module, or a tensor or module inside
    # or beside it, so its sharding says nothing of what it is (`Flow.is_module`), and no run
    # must have sharded it (`ShardEvent.guessed`: what the ordering rules ask is a must)
    guessed: FrozenSet[AttrPath] = frozenset()
    # whether the object is a module true in a test and an instance of no builtin class nor of
    # torch's wrappers: as built (`Fresh.true`), or by its class where a widened context drops
    # `cls` (`Project.widen`, `class_values.plain_module`)
    plain: bool = False

    def __post_init__(self) -> None:
        _share_empty_sets(self, _OBJECT_SETS)


@dataclass(frozen=True, slots=True)
class Context:
    """The calling context of one analysis of a function: facts per parameter name (only those
    bound to objects), and the sharded paths of module globals and of the caller's objects that
    other values refer to (an `Either` of modules) at the call, with the flags every run that
    sharded one fixed, as for `ObjectFacts.conditions`, and how far those of them on the meta
    device got."""

    params: Tuple[Tuple[str, ObjectFacts], ...] = ()
    globals: FrozenSet[Tuple[Root, AttrPath]] = frozenset()
    conditions: Tuple[Tuple[Tuple[Root, AttrPath], "FlagConditions"], ...] = ()
    # the caller's objects on the meta device that those other values refer to, with how far each got
    meta: Tuple[Tuple[Tuple[Root, AttrPath], Materialised], ...] = ()
    # the parameters the callee tests against None (`Project.none_tested`) whose argument cannot
    # be None (a dict, an object built from a known class): `param is None` is false there
    not_none: FrozenSet[str] = frozenset()
    # the caller's objects that those other values refer to whose parameters it hands to FSDP
    # again once the call returns (as `ObjectFacts.reregistered`: a list of modules passed on)
    reregistered: FrozenSet[Tuple[Root, AttrPath]] = frozenset()
    # the caller's branch outcomes at the call about what the callee receives (its parameters'
    # attributes, a parameter itself where the argument is a flag, the run's inputs), kept only
    # where the callee's walk may test them (`Project.attributes_tested`): a test there that
    # contradicts one the call sits under takes no run
    outcomes: "FlagConditions" = frozenset()
    # the caller's objects that those other values refer to that are plain modules (as
    # `ObjectFacts.plain`: `[models]` of a module that a widened context knows only so)
    plain: FrozenSet[Root] = frozenset()
    # the module globals that a function of the tree rebound (`global NAME; NAME = args`) to an
    # object the callee receives: the global, the parameter, and the path inside its argument
    # (`get_args()` in the callee is its `args`)
    held_globals: Tuple[Tuple[Root, str, AttrPath], ...] = ()
    # the globals among `globals` (the names themselves) that are `FSDPModule`s on every run to
    # the call, whichever object the name is bound to there (as `ObjectFacts.certain`)
    certain: FrozenSet[Tuple[Root, AttrPath]] = frozenset()
    # the parameters whose argument lies inside another's, at a path of attributes the code
    # names (`apply_fsdp(model, model.layers)`): (parameter, holder, path), the holder's object
    # at the path being the parameter's (`blocks` is `root.layers`)
    within: Tuple[Tuple[str, str, AttrPath], ...] = ()

    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        # A context keys the memo of summaries, the rule pass's walks and `widen`'s sets, each
        # asked at every call: its hash (the dataclass's own, over every nested fact) is made once.
        _share_empty_sets(self, _CONTEXT_SETS)
        object.__setattr__(self, "_hash", hash((
            self.params, self.globals, self.conditions, self.meta, self.not_none, self.reregistered, self.outcomes, self.plain,
            self.held_globals, self.certain, self.within,
        )))

    def __hash__(self) -> int:
        return self._hash

    def of(self, name: str) -> Optional[ObjectFacts]:
        return next((facts for param, facts in self.params if param == name), None)


# Each `frozenset()` built from nothing is a new 216-byte object (CPython keeps no empty singleton),
# and most of these facts' sets are empty: a large tree's contexts and object facts held over a
# hundred thousand of them, a tenth of the run's peak memory (NVIDIA-NeMo/Automodel). Equal values,
# so nothing that compares or hashes the facts sees the difference.
_OBJECT_SETS = ("sharded", "certain", "forwarded", "compiled", "reregistered", "guessed")
_CONTEXT_SETS = ("globals", "not_none", "reregistered", "outcomes", "plain", "certain")


def _share_empty_sets(facts: Union[ObjectFacts, Context], names: Tuple[str, ...]) -> None:
    for name in names:
        value = getattr(facts, name)
        if not value and value is not EMPTY:
            object.__setattr__(facts, name, EMPTY)


UNKNOWN_CONTEXT = Context()


@dataclass(slots=True)
class ShardEvent:
    """`fully_shard` of `target` at `node` (or at the call of the helper that did it), with its
    place in program order (`seq`) and the branch outcomes that lead to it (`path`). An inherited
    event happened before the function was called (`origin` says where)."""

    target: Obj
    node: nodes.NodeNG
    seq: int = 0
    guarded: bool = False  # made by a helper under a condition of its own (`if shard: fully_shard(m)`)
    path: Path = EMPTY
    origin: Optional[Origin] = None
    above: bool = False  # inherited: a module above `target` was sharded (target is inside a unit)
    # inherited: the caller matched the path only through a name given at run time
    # (`ObjectFacts.guessed`): some run may have sharded it (or the module around it), none must
    guessed: bool = False
    inner: Tuple[int, ...] = ()  # made by the call at `seq`: where inside it (its own seq, and so on down)

    @property
    def inherited(self) -> bool:
        return self.origin is not None and self.seq < 0


@dataclass(frozen=True, slots=True)
class Rebuild:
    """An optimizer's param groups rebuilt at a point of a walk: cleared or replaced
    (`param_groups.clear()`, `group["params"] = ...`), or given a group over `over`'s parameters
    (`add_param_group`). From there on it holds the parameters those modules have then, so only
    a later `fully_shard` of them leaves it with stale tensors (torch 2.13, CPU: `step()` then
    updates every parameter). `target` is the optimizer, or the object that holds it where the
    walk does not know which optimizer that is (`state.optimizers[0]`)."""

    target: Value
    seq: int
    path: Path = EMPTY
    inner: Tuple[int, ...] = ()  # made by the call at `seq`: where inside it, as for `ShardEvent`
    over: Tuple[Obj, ...] = ()  # the modules whose parameters it now holds; () for all of them

    @property
    def position(self) -> Tuple[int, ...]:
        return (self.seq,) + self.inner


@dataclass(slots=True)
class Summary:
    """What a call of a function does, in terms of its parameters (for one context)."""

    key: str
    param_roots: Dict[str, Root]
    self_root: Optional[Root]
    events: Sequence[ShardEvent] = field(default_factory=list)
    replacements: Sequence[ShardEvent] = field(default_factory=list)
    escaped: AbstractSet[Root] = field(default_factory=set)
    returns: Value = UNKNOWN
    attr_writes: Sequence[Tuple[Obj, Value]] = field(default_factory=list)
    # the objects it built on meta, and those of its parameters (or held by them) it materialised or initialised
    meta_states: Dict[Tuple[Root, AttrPath], Materialised] = field(default_factory=dict)
    optimizers: Sequence[Optimizer] = field(default_factory=list)  # built by the call, kept or returned
    deferred: FrozenSet[str] = frozenset()  # modules it or its callees called into unentered (`Project.enter`)
    handoffs: Sequence[Tuple[str, Optimizer]] = field(default_factory=list)  # optimizers it or its callees passed to a call, by the call's name
    rebuilds: Sequence[Rebuild] = field(default_factory=list)  # optimizers' param groups it (or a callee) rebuilt
    forwards: Sequence[Tuple[Obj, bool]] = field(default_factory=list)  # modules it (or a callee) ran, and whether after a shard
    # the collectives it (or a callee) issues on every run: each with its own call (`Collective`)
    collectives: Tuple[Tuple[str, nodes.Call], ...] = ()
    compiled: Sequence[Obj] = field(default_factory=list)  # objects `torch.compile` returned in it (or a callee)
    reregistrations: Sequence[ShardEvent] = field(default_factory=list)  # modules whose parameters it (or a callee) handed to FSDP again
    # the objects it built that are plain modules as built (`Flow._plain`: a container of modules
    # given children), which the caller can reach: `if models:` of a returned `nn.Sequential(...)`
    plain: FrozenSet[Root] = frozenset()
    # the flags of the caller's objects it (or a callee) gave new versions, with the constants it
    # wrote to each (None: some value no constant gives): an outcome they all pass still holds
    rebinds: Tuple[Tuple[Obj, Optional[Tuple[object, ...]]], ...] = ()
    # A `@contextmanager` generator: what runs after its `yield`, which a `with` applies when its
    # block ends (the fields above are what runs before, at the `with`).
    exit: Optional["Summary"] = None

    def keep(self, shared: Dict[object, object]) -> None:
        """Made ready to be kept for the rest of the run: its lists become tuples (an empty one is
        the interpreter's one `()`, and most are empty), and its sets, each event's path and target
        the equal value `shared` already holds. A large tree keeps thousands of summaries that
        repeat a few thousand of each (Automodel: 113,000 path sets alive, 19,000 distinct;
        250,000 objects, 63,000 distinct)."""
        for name in _SEQUENCE_FIELDS:
            setattr(self, name, tuple(getattr(self, name)))
        self.escaped = shared.setdefault(frozenset(self.escaped), frozenset(self.escaped))  # type: ignore[assignment]
        self.deferred = shared.setdefault(self.deferred, self.deferred)  # type: ignore[assignment]
        self.plain = shared.setdefault(self.plain, self.plain)  # type: ignore[assignment]
        for event in (*self.events, *self.replacements, *self.reregistrations):
            event.path = shared.setdefault(event.path, event.path)  # type: ignore[assignment]
            event.target = shared.setdefault(event.target, event.target)  # type: ignore[assignment]
        if self.exit is not None:
            self.exit.keep(shared)

    def signature(self) -> tuple:
        """What callers see of it, comparable across iterations of a recursive fixpoint."""
        return (
            tuple((e.target, e.guarded) for e in self.events), tuple(e.target for e in self.replacements),
            frozenset(self.escaped), _shape(self.returns), tuple((o, _shape(v)) for o, v in self.attr_writes),
            frozenset(self.meta_states.items()), tuple(_shape(o) for o in self.optimizers),
            tuple((_shape(r.target), r.over) for r in self.rebuilds), self.exit.signature() if self.exit else None,
            tuple((name, _shape(o)) for name, o in self.handoffs), tuple(self.forwards), self.collectives, tuple(self.compiled),
            tuple(e.target for e in self.reregistrations), self.plain, self.rebinds,
        )


_SEQUENCE_FIELDS = (
    "events", "replacements", "attr_writes", "optimizers", "handoffs", "rebuilds", "forwards", "compiled", "reregistrations",
)


def _shape(value: Value) -> object:
    """A value without its syntax nodes (an optimizer built at different nodes is the same shape)."""
    if isinstance(value, Optimizer):
        return ("optimizer", value.over, value.cls_name)
    if isinstance(value, Container):
        return ("container", tuple(_shape(v) for v in value.items), value.keys)
    if isinstance(value, Either):
        return ("either", tuple(_shape(v) for v in value.options))
    if isinstance(value, StateDict):
        return ("state", _shape(value.owner), value.copies)
    return value


class RootMapper:
    """Rewrites values of a callee's summary into the caller's terms (parameters -> arguments;
    objects the callee creates -> new objects of the caller, one per call site; members the
    callee looked up -> new members of the caller, one per call site)."""

    def __init__(self, bound: Dict[Root, Value], callee_key: str, caller_key: str, instance: int, project: "Project"):
        self.bound = bound
        self.project = project
        self.callee_key = callee_key
        self.caller_key = caller_key
        self.application = instance  # one per application: a loop that calls `build()` twice gets two models
        # The members the callee (or a function it called) looked up are named with its scope
        # (`Flow._member`); the caller's own, which reached it in the context, are not. A
        # recursive call keeps them: the caller's and the callee's are one lookup.
        self._own_members = None if callee_key == caller_key else member(callee_key + "#")

    def objs(self, obj: Obj) -> Tuple[Obj, ...]:
        """The caller's objects a callee's object is: the argument (or each object an argument
        may be, where branches bound several), or a new object for one the callee created."""
        if obj.root in self.bound:
            return tuple(found for found, _ in self.guarded_objs(obj))
        attrs = self._members(obj.attrs) if obj.attrs else obj.attrs
        if obj.root[0] == self.callee_key:
            mapped = Obj((self.caller_key, obj.root[1], self.project.instances.instance(self.application, obj.root[2])), attrs, obj.cls)
            self.project.inherit_origin(mapped.root, obj.root)
            return (mapped,)
        return (obj if attrs is obj.attrs else Obj(obj.root, attrs, obj.cls),)

    def guarded_objs(self, obj: Obj) -> Tuple[Tuple[Obj, FrozenSet[tuple]], ...]:
        """`objs`, each with the branch outcomes of the caller's runs that give it: those of the
        argument's option it is in (none for the others)."""
        if obj.root not in self.bound:
            return tuple((found, frozenset()) for found in self.objs(obj))
        attrs = self._members(obj.attrs) if obj.attrs else obj.attrs
        return tuple(
            (Obj(option.root, option.attrs + attrs, option.cls if not attrs else obj.cls), guard)
            for option, guard in guarded_options(self.bound[obj.root]) if isinstance(option, Obj)
        )

    def _members(self, attrs: Tuple[str, ...]) -> Tuple[str, ...]:
        """`attrs` with each member the callee looked up renamed for this call: `get_encoder(model)`
        and `get_decoder(model)`, both `getattr(model, name)` in one helper, are two modules.
        Each name is interned: the caller's walk in every context makes it again, and the
        summaries keep them all."""
        own = self._own_members
        if own is None or not any(attr.startswith(own) for attr in attrs):
            return attrs
        return tuple(
            sys.intern(member(f"{self.caller_key}#{self.application}/{zlib.crc32(attr.encode()):08x}")) if attr.startswith(own) else attr
            for attr in attrs
        )

    def value(self, value: Value, call: nodes.NodeNG, depth: int = 0) -> Value:
        if depth > 6:
            return UNKNOWN
        if isinstance(value, Obj):
            given = self.bound.get(value.root) if not value.attrs else None
            if given is not None and not all(isinstance(option, Obj) for option in options_of(given)):
                return given  # a parameter handed back: the argument itself (a list of blocks, a flag)
            mapped = self.objs(value)
            return either(list(mapped)) if mapped else UNKNOWN
        if isinstance(value, Params):
            owners = self.objs(value.owner)
            # a list the callee collected holds the tensors of before its call returned: taken at the call
            taken = self.application if value.taken is not None else None
            return either([Params(owner, taken) for owner in owners]) if owners else UNKNOWN
        if isinstance(value, Optimizer):
            over = tuple(o for obj in value.over for o in self.objs(obj))
            return Optimizer(over, value.node, value.cls_name) if over else UNKNOWN
        if isinstance(value, StateDict):
            owner = self.value(value.owner, call, depth + 1)
            return StateDict(owner, value.copies) if isinstance(owner, (Obj, Optimizer)) else UNKNOWN
        if isinstance(value, Container):
            return Container(tuple(self.value(item, call, depth + 1) for item in value.items), value.keys, value.exact)
        if isinstance(value, Either):
            # flat: an option that maps to several objects adds each (`Flow._as_stored` reads options)
            return either([self.value(option, call, depth + 1) for option in value.options])
        if isinstance(value, Iterable):
            return Iterable(self.value(value.element, call, depth + 1))
        return value


class CreatedInstances:
    """The instances, in a caller, of the objects its callees created: one per application of a
    summary and per object of the callee, so that two objects the callee tells apart by instance
    alone (the model a builder returns and the text encoder a helper of its constructor built,
    both named `model`) stay two, instead of one object sharded wherever either is.

    Numbered as they are first met, negative like every instance a call makes. A pairing function
    of the two numbers (Cantor's) made this before: the instance of an object created a few calls
    down squares at every level, and NVIDIA/Model-Optimizer's nested builders made integers of
    millions of digits (the run did not finish in an hour). One table serves the projects of
    every round, whose summaries are kept from round to round."""

    def __init__(self) -> None:
        self._numbers: Dict[Tuple[int, int], int] = {}
        self._applications: List[int] = []

    def instance(self, application: int, instance: int) -> int:
        found = self._numbers.get((application, instance))
        if found is None:
            self._applications.append(application)
            found = self._numbers[(application, instance)] = -len(self._applications)
        return found

    def creating_call(self, instance: int) -> Optional[int]:
        """Where in the caller's walk the call that created an object of this instance ran (its
        sequence number: the application); None for an object the walk built itself."""
        return self._applications[-instance - 1] if instance < 0 else None
