"""Abstract values the flow interpreter tracks: objects by identity and access path, and the few
kinds of derived values the contracts talk about (parameters, optimizers, state dicts)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable, FrozenSet, Optional, Sequence, Tuple, Type, TypeVar, Union

from astroid import nodes

# A root names one object identity: (scope key, variable name, generation). A rebinding of a local
# name to a new object gets a new generation, so `model = Model()` twice gives two roots.
Root = Tuple[str, str, int]
# An attribute the code does not name. `WILDCARD` alone is an item of a list or dict of modules
# (`model.layers[*]`: the item a loop over it binds). A member is a module named only at run time
# (`getattr(model, name)`, an item of `model.modules()`): `WILDCARD` followed by the lookup that
# found it (`member`), so that two lookups the code cannot tell apart are two unknown modules. Any
# wildcard may be any module (`path_covers`), but only the same lookup must be the same module
# (`path_must_cover`). No attribute name of Python starts with `*`. A member named in another
# function (the caller's, in a calling context) is `ANONYMOUS`: it may be any module and must be
# none, not even another anonymous one (`anonymous`).
WILDCARD = "*"
ANONYMOUS = "*?"
MAX_PATH = 6
_ITEMS = (WILDCARD, ANONYMOUS)  # attributes that stand for no module in particular of a list (or of a module)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Obj:
    """An object reached from `root` through attributes and items (`model.layers[*]`)."""

    root: Root
    attrs: Tuple[str, ...] = ()
    cls: Optional[str] = None

    def __post_init__(self) -> None:
        # Paths stay finite (k-limited, as access-path analyses bound them): an item of an item
        # is some module inside the list, none in particular (`x[*][*]` is `x[*?]`: not the item
        # `x[*]` a loop binds, which it may be but need not; a recursive helper's list of lists
        # would otherwise make the items of an inner list the outer list's items), a member that
        # one lookup found in a member it found is taken for that member, and past MAX_PATH
        # attributes the rest is "somewhere inside". Without this a recursive walk over
        # `children()` never converges.
        attrs = self.attrs
        if len(attrs) > MAX_PATH or len(attrs) > 1 and any(
            a[:1] == "*" and (a == b or a in _ITEMS and b in _ITEMS) for a, b in zip(attrs, attrs[1:])
        ):
            bounded: list = []
            for attr in attrs:
                if attr in _ITEMS and bounded and bounded[-1] in _ITEMS:
                    bounded[-1] = ANONYMOUS
                elif not (attr[:1] == "*" and bounded and bounded[-1] == attr):
                    bounded.append(attr)
            if len(bounded) > MAX_PATH:
                bounded = bounded[: MAX_PATH - 1] + [WILDCARD]
            if len(bounded) != len(attrs):
                object.__setattr__(self, "attrs", tuple(bounded))

    def child(self, attr: str) -> "Obj":
        return Obj(self.root, self.attrs + (attr,))

    @property
    def display(self) -> str:
        text = self.root[1]
        for attr in self.attrs:
            text += "[*]" if attr[:1] == "*" else f".{attr}"
        return text


@dataclass(frozen=True, slots=True)
class Fresh:
    """A newly created object not yet bound to a name (it gets its root when bound). `true`: a
    container of modules built with children written out (`known_apis.built_true`), true in a
    test although its class has a length."""

    cls: Optional[str] = None
    true: bool = False


@dataclass(frozen=True, slots=True)
class Params:
    """`owner.parameters()` and anything that carries those tensors (lists, param groups).
    `taken`: where a list of them was collected (`[p for p in m.parameters() if ...]`,
    `list(m.parameters())`), the walk's rank of that point: the list keeps the tensors the module
    had then, which `fully_shard` later replaces; None for the generator itself, which yields
    the module's parameters as they are when it is consumed."""

    owner: Obj
    taken: Optional[int] = None


@dataclass(frozen=True, slots=True)
class Optimizer:
    """An optimizer over the parameters of `over`, built at `node` (or by the helper called at it).
    `runs`, where the walk that built it knows them: for each of `over`, the branch outcomes every
    run on which it holds that one takes (`AdamW(net.parameters())` of a `net` bound on two arms);
    empty: it holds each on every run."""

    over: Tuple[Obj, ...]
    node: nodes.NodeNG
    cls_name: str
    runs: Tuple[FrozenSet[tuple], ...] = ()

    def held(self) -> Tuple[Tuple[Obj, FrozenSet[tuple]], ...]:
        """Each module it is over, with the runs on which it holds that one."""
        return tuple(zip(self.over, self.runs)) if self.runs else tuple((owner, frozenset()) for owner in self.over)


@dataclass(frozen=True, slots=True)
class ParamGroups:
    """`optimizer.param_groups`, one of its groups or an entry of one: what code rebuilds an
    optimizer through (`param_groups.clear()`, `group["params"] = new`). `optimizer` is the
    optimizer, or the object that holds it where which optimizer that is is not known."""

    optimizer: Union[Obj, Optimizer]


@dataclass(frozen=True, slots=True)
class StateDict:
    """`owner.state_dict()` or a `get_*_state_dict` that keeps the owner's (possibly sharded)
    tensors; with `copies`, a copy of one of the owner's parameters (`param.detach().clone()`
    over `named_parameters()`): the same tensors (DTensors where the owner is sharded), not a
    state dict the owner made."""

    owner: Union[Obj, Optimizer]
    copies: bool = False


@dataclass(frozen=True, slots=True)
class Gathered:
    """A full state dict (`get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))`)
    or anything taken out of one (an entry, an item of `items()`, a copy): the tensors in it are
    plain ones, gathered whole on every rank, so none of them is a DTensor (torch 2.13), whatever
    the module held."""


GATHERED = Gathered()


@dataclass(frozen=True, slots=True)
class FileState:
    """What a plain loader (`loader`: `torch.load`, safetensors' `load_file`) read from a file
    whose name is not built from the rank, or anything taken out of it (an entry, an item of
    `items()`, a copy): the tensors its writer saved, taken for the full plain ones a
    `torch.save` of a model's state dict before sharding writes (torch 2.13: `load_state_dict`
    of them into a sharded module raises). Not `Gathered`: a file may hold DTensors, so what
    tests of them find is not known."""

    loader: str


# Values a state dict's entries, items and copies are again (`sd["model"]`, `sd.items()`).
WHOLE_STATES = (Gathered, FileState)


@dataclass(frozen=True, slots=True)
class UnnamedKey:
    """The key a dict's `Container.keys` gives an entry whose key is not known: a computed one
    (`{name: model}`), or one of those a `**` of a value of unknown keys spreads (`{MODEL_KEY:
    sd, **extra}`). Its item stands for any number of entries, none included (one, where the
    container is exact), under keys none of which is a later named key of the dict (that
    replaced it); an earlier named entry it may have replaced holds either value
    (`containers.dict_of`)."""


UNNAMED = UnnamedKey()


@dataclass(frozen=True, slots=True)
class Container:
    """A dict, list or tuple literal, or a tuple yielded by `enumerate`/`named_modules`. `keys`,
    for a dict only, in the order of `items`: each entry's constant key, so that
    `state["model"]` finds its value, or `UNNAMED` where the key is not known; None for a list,
    tuple or set, whose `in` tests its items. `exact` where `items` are all it holds, one entry
    each (a list literal without `*` of an unknown sequence, a dict its code filled key by key
    from `{}`): what `len` counts and what a loop over it runs through, each item once and at
    least one. Otherwise an item may stand for several or none (`[*layers]`, `{name: m for m in
    models}`, whose keys may coincide). A dict whose keys are all named holds each once."""

    items: Tuple["Value", ...]
    keys: Optional[Tuple[object, ...]] = None
    exact: bool = False

    def item(self, key: object) -> "Value":
        if self.keys is not None:
            return self.items[self.keys.index(key)] if key in self.keys else UNKNOWN
        if isinstance(key, int) and not isinstance(key, bool) and -len(self.items) <= key < len(self.items):
            return self.items[key]
        return UNKNOWN

    @property
    def named(self) -> bool:
        """Whether a dict names every key it holds (no `UNNAMED` entry)."""
        return self.keys is not None and UNNAMED not in self.keys


@dataclass(frozen=True, slots=True)
class Iterable:
    """Something iterated to produce `element` (`model.modules()`, `enumerate(model.layers)`);
    `nonempty` where it produces one at least (a comprehension without `if` over a literal list),
    so that `any` of elements that are all true is true."""

    element: "Value"
    nonempty: bool = False


@dataclass(frozen=True, slots=True)
class BoundMethod:
    owner: Obj
    name: str


@dataclass(frozen=True, slots=True)
class ShardFunction:
    """`fully_shard` itself under another name, e.g. `functools.partial(fully_shard, mesh=...)`."""


@dataclass(frozen=True, slots=True)
class ClassRef:
    """A class used as a value (`cls` in a classmethod, a class of the tree or torch's `FSDPParam`
    bound to a name): calling it constructs one."""

    qname: str


@dataclass(frozen=True, slots=True)
class Partial:
    """`functools.partial(f, *args, **keywords)` of a function of the tree, or of an optimizer
    class (calling it builds the optimizer); a function of the tree used as a value is its
    partial with nothing bound, a closure's binds the variables it reads from the function
    around it (`fsdp_lint.analysis.closures`)."""

    qname: str
    args: Tuple["Value", ...]
    keywords: Tuple[Tuple[str, "Value"], ...]


@dataclass(frozen=True, slots=True)
class WorldSize:
    """The number of processes of the job (`dist.get_world_size()`, the launcher's `WORLD_SIZE`).
    The contracts are about runs of several processes (a collective only some ranks enter, a
    state dict holding one rank's shards), so the analysis takes those: `world_size > 1` holds
    on them, `world_size == 1` does not, and a test against a larger number stays open. The same
    on every rank and in every function, it travels into callees as a flag does."""


WORLD_SIZE = WorldSize()


@dataclass(frozen=True, slots=True)
class RankNamed:
    """A file name (a string or a path) built from the process's rank: `f"model_rank{rank}.pt"`,
    `os.path.join(directory, shard_name(rank))`, what a helper returns of one, or a parameter given
    one. A file of this rank's own holds its own shards by design. The value, not the text at
    the call that writes or reads the file, carries it, so a helper that saves to the name it is
    given, or adds a suffix to it, still knows it (`Flow.names_rank_file`)."""


RANK_NAMED = RankNamed()


@dataclass(frozen=True, slots=True)
class Options:
    """`StateDictOptions(...)`: whether it asks for a full state dict (None: not visible)."""

    full_state_dict: Optional[bool]


@dataclass(frozen=True, slots=True)
class Constant:
    """A constant written in the code (`True`, `None`, `2`, `"fsdp"`): the same on every rank,
    so a branch on a flag a caller passes as a constant takes one arm in that context, and a
    helper that returns one (`fsdp_version(model)` -> 2) decides its caller's test. Only `True`,
    `False` and `None` travel into calling contexts (`travels`): any other would make a context of
    every call site."""

    value: object
    travels: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "travels", self.value is None or isinstance(self.value, bool))


@functools.lru_cache(maxsize=1 << 12, typed=True)
def constant(value: object) -> Constant:
    """The `Constant` of a literal, made once per value (literals are the commonest leaf)."""
    return Constant(value)


_COMPARISONS = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}
_ORDERED = (int, float)  # what `<` and the like compare here (`len(args) > 0`)


def compared(op: str, left: "Value", right: "Value") -> "Value":
    """`left op right` for `==`, `!=` and the orderings of numbers, where every value either side
    may be is a constant; `key in d` for a dict whose keys are known (`"tp" in config`)."""
    if op in ("in", "not in"):
        return _contains(left, right, op == "in")
    if op not in _COMPARISONS:
        return UNKNOWN
    if type(left) is Constant and type(right) is Constant and op in ("==", "!="):  # the common case
        return constant(_COMPARISONS[op](left.value, right.value))
    if isinstance(left, WorldSize) or isinstance(right, WorldSize):
        return _count_compared(op, left, right)
    lefts, rights = options_of(left), options_of(right)
    if not all(isinstance(v, Constant) for v in lefts + rights):
        return UNKNOWN
    if op not in ("==", "!=") and not all(isinstance(v.value, _ORDERED) for v in lefts + rights):  # type: ignore[union-attr]
        return UNKNOWN
    results = {_COMPARISONS[op](a.value, b.value) for a in lefts for b in rights}  # type: ignore[union-attr]
    return constant(results.pop()) if len(results) == 1 else UNKNOWN


def travels(value: "Value") -> bool:
    """Whether a calling context hands a callee the value itself, which decides the callee's
    tests of it on every run: `True`, `False`, `None` (`Constant.travels`) and the job's process
    count. An int or a string would make a context of every call site (`Flow._decides` lets one
    in where the callee tests it, and a widened context drops it)."""
    return isinstance(value, WorldSize) or isinstance(value, Constant) and value.travels


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _count_compared(op: str, left: "Value", right: "Value") -> "Value":
    """`WorldSize` against a constant integer, on runs of two processes or more: decided where
    every such count gives one answer (`> 1`, `!= 1`, `== 1`, `< 2`), open otherwise (`> 4`)."""
    if isinstance(right, WorldSize):
        left, right, op = right, left, _FLIPPED[op]
    if not isinstance(right, Constant) or isinstance(right.value, bool) or not isinstance(right.value, int):
        return UNKNOWN
    n = right.value
    decided = {
        ">": True if n < 2 else None, ">=": True if n <= 2 else None,
        "<": False if n <= 2 else None, "<=": False if n < 2 else None,
        "==": False if n < 2 else None, "!=": True if n < 2 else None,
    }[op]
    return UNKNOWN if decided is None else constant(decided)


def _contains(key: "Value", container: "Value", inside: bool) -> "Value":
    """`key in container` where it is decided whatever values either may be (`_holds`)."""
    results = set()
    for option in options_of(container):
        for tested in options_of(key):
            held = _holds(option, tested)
            if held is None:
                return UNKNOWN
            results.add(held == inside)
    return constant(results.pop()) if len(results) == 1 else UNKNOWN


def _holds(container: "Value", key: "Value") -> Optional[bool]:
    """Whether a dict holds a key, or a list, tuple or set an item: no for an empty dict whatever
    the key; for a constant key, yes where a named key or an item that is one entry (exact) is
    that constant, no where none is nor may be (every item a constant, no `UNNAMED` key). None
    where it depends on what the walk does not know (`k not in [MODEL_KEY, OPTIMIZER_KEY]` of a
    key of an `**` entry)."""
    if not isinstance(container, Container) or container.keys == ():
        return False if isinstance(container, Container) else None
    if not isinstance(key, Constant):
        return None
    if container.keys is not None:
        return True if key.value in container.keys else None if UNNAMED in container.keys else False
    items = [options_of(item) for item in container.items]
    if not all(isinstance(option, Constant) for options in items for option in options):
        return None
    if container.exact and any(len(options) == 1 and options[0].value == key.value for options in items):  # type: ignore[union-attr]
        return True
    return False if all(option.value != key.value for options in items for option in options) else None  # type: ignore[union-attr]


def size(value: "Value") -> "Value":
    """`len(value)` where every value it may be is a dict whose keys are all named or a container
    whose items are exact."""
    sizes = set()
    for option in options_of(value):
        if not isinstance(option, Container) or not option.named and not option.exact:
            return UNKNOWN
        sizes.add(len(set(option.keys)) if option.named else len(option.items))  # type: ignore[arg-type]
    return constant(sizes.pop()) if len(sizes) == 1 else UNKNOWN


def runs_through(value: "Value") -> bool:
    """Whether a loop over `value` runs once at least, whatever it may be: each option a
    container known to hold an item (a dict with a named key, exact items), an iterable known to
    produce one, or a state dict or a module's parameters (which hold an entry wherever they
    hold a tensor; where they hold none, no rule cares what the loop did: `any(isinstance(p,
    DTensor) for p in model.parameters())` of a module with none says nothing of its sharding)."""
    return all(
        isinstance(o, Container) and o.items and (o.exact or o.keys and any(key != UNNAMED for key in o.keys))
        or isinstance(o, Iterable) and o.nonempty or isinstance(o, (StateDict, Params))
        for o in options_of(value)
    )


@dataclass(frozen=True, slots=True)
class Truth:
    """A boolean the walk cannot compute but can describe by branch outcomes about objects
    (`fsdp_lint.analysis.paths` literals: flags, identities of attributes): True on every run that
    takes all the outcomes of one of `when_true`, False on every run that takes those of one of
    `when_false` (`a.weight is b.weight`: True where the two are one parameter). The conditions
    are sufficient, not necessary: a run that takes none of them may give either value
    (`fsdp_lint.analysis.truths`)."""

    when_true: Tuple[FrozenSet[tuple], ...]
    when_false: Tuple[FrozenSet[tuple], ...]


@dataclass(frozen=True, slots=True)
class Either:
    """One of several values, where branches that bound different ones meet. Where the walk
    knows which branches give an option (`model.model if is_actor(model) else model`), `guards`
    holds, for each option, branch outcomes (`fsdp_lint.analysis.paths` literals) that every run
    giving it takes: what is done to that option is done on those runs only. Empty: nothing known."""

    options: Tuple["Value", ...]
    guards: Tuple[FrozenSet[tuple], ...] = ()


@dataclass(frozen=True, slots=True)
class Deferred:
    """Not a value: what a called name resolves to when it lies in a module whose code the flows
    do not enter (yet). The call is treated as one of unknown code (`Project.demanded_modules`).
    `returned`: the call of a function a call into the module returned (`make_step(cfg)(model)`),
    which runs the module's code only where the module makes functions."""

    module: str
    returned: bool = False


@dataclass(frozen=True, slots=True)
class Unknown:
    pass


UNKNOWN = Unknown()
Value = Union[
    Obj, Fresh, Params, Optimizer, ParamGroups, StateDict, Gathered, FileState, Container, Iterable, BoundMethod, ShardFunction,
    ClassRef, Partial, Options, Constant, Truth, Either, Unknown, WorldSize, RankNamed,
]


# The most objects one value may be. Each call site of a callee makes new objects of the ones it
# creates, and a callee bound to several objects maps what it returns onto each: through builders
# that call builders (NVIDIA/Model-Optimizer) values of 500 options came back, and the joins over
# them did not finish in an hour. A value past this many is unknown, which stays silent.
MAX_OPTIONS = 32


def either(values: "Sequence[Value]") -> Value:
    """The join of values: itself when all agree, else an `Either` of the distinct ones (flat),
    each option of a guarded one with its guard."""
    first = values[0] if values else UNKNOWN
    if all(value is first for value in values):
        return first
    if any(isinstance(value, Either) and value.guards for value in values):
        return guarded([(value, _NO_GUARD) for value in values])
    distinct = list(dict.fromkeys(option for value in values for option in (value.options if isinstance(value, Either) else (value,))))
    if len(distinct) == 1:
        return distinct[0]
    if all(isinstance(v, Unknown) for v in distinct) or len(distinct) > MAX_OPTIONS:
        return UNKNOWN
    return Either(tuple(distinct))


_NO_GUARD: FrozenSet[tuple] = frozenset()


def guarded(pairs: "Sequence[Tuple[Value, FrozenSet[tuple]]]") -> Value:
    """The join of values, each given on the runs that take the branch outcomes of its guard (an
    option of a guarded `Either` on the runs that take its own too). An option given on several
    ways keeps what they share."""
    found: dict = {}
    for value, guard in pairs:
        for option, inner in guarded_options(value):
            both = guard | inner if inner else guard
            found[option] = found[option] & both if option in found else both
    if len(found) == 1:
        return next(iter(found))
    if all(isinstance(option, Unknown) for option in found) or len(found) > MAX_OPTIONS:
        return UNKNOWN
    guards = tuple(found.values())
    return Either(tuple(found), guards if any(guards) else ())


def guarded_options(value: "Value") -> "Tuple[Tuple[Value, FrozenSet[tuple]], ...]":
    """The values a value may be, each with the branch outcomes every run that gives it takes."""
    if isinstance(value, Either):
        return tuple(zip(value.options, value.guards)) if value.guards else tuple((option, _NO_GUARD) for option in value.options)
    return ((value, _NO_GUARD),)


def mapped_options(value: "Value", function: "Callable[[Value], Value]") -> "Value":
    """`function` of each value `value` may be, joined, each result on the runs of its option."""
    if isinstance(value, Either) and value.guards:
        return guarded([(function(option), guard) for option, guard in zip(value.options, value.guards)])
    if isinstance(value, Either):
        return either([function(option) for option in value.options])
    return function(value)


def options_of(value: Value) -> Tuple[Value, ...]:
    """The values a value may be: the options of an `Either`, else itself."""
    return value.options if isinstance(value, Either) else (value,)


def member(lookup: str) -> str:
    """The attribute of a module named only at run time, found by `lookup` (one per lookup)."""
    return WILDCARD + lookup


def is_wildcard(attr: str) -> bool:
    """Whether an attribute of a path is one the code does not name (an item or a member)."""
    return attr[:1] == "*"


def is_member(attr: str) -> bool:
    """Whether an attribute of a path is a member (a module named only at run time, `member`, or
    `ANONYMOUS`): two lookups need not find one module, where the items of a list stay one item
    (`path_must_cover`), the one a loop binds: what a test of one finds (`hasattr(model_container[0],
    "set_requires_gradient_sync")`) and what `fully_shard` of one makes are about it."""
    return attr[:1] == "*" and attr != WILDCARD


def path_covers(outer: Obj, inner: Obj) -> bool:
    """True when `inner` may be `outer` or lie inside it (same root, `outer.attrs` a prefix, where
    a wildcard either side may be any attribute)."""
    if outer.root != inner.root or len(outer.attrs) > len(inner.attrs):
        return False
    return all(a == b or a[:1] == "*" or b[:1] == "*" for a, b in zip(outer.attrs, inner.attrs))


def path_must_cover(outer: Obj, inner: Obj) -> bool:
    """True when `inner` is `outer` or lies inside it whichever modules its wildcards stand for:
    `outer.attrs` is a prefix of `inner.attrs`, a member only the same member (`getattr(model,
    a)` need not be `getattr(model, b)`, nor hold `model.layers`). The items of a list stay one
    item (`model.layers[*]` holds `model.layers[*].attn`: the loop over them binds one at a time)."""
    if outer.root != inner.root or len(outer.attrs) > len(inner.attrs):
        return False
    return outer.attrs == inner.attrs[: len(outer.attrs)] and ANONYMOUS not in outer.attrs


def anonymous_attrs(attrs: Tuple[str, ...]) -> Tuple[str, ...]:
    """`attrs` with each member made `ANONYMOUS`."""
    if not any(attr[:1] == "*" and attr != WILDCARD for attr in attrs):
        return attrs
    return tuple(ANONYMOUS if attr[:1] == "*" and attr != WILDCARD else attr for attr in attrs)


def anonymous(value: "Value", depth: int = 0) -> "Value":
    """`value` as a calling context hands it to a callee: its members anonymous. Which lookup
    found a module is the caller's business, and a context that named it would make each call
    site a context of its own; the callee's own lookups are members of their own anyway."""
    if isinstance(value, Obj):
        attrs = anonymous_attrs(value.attrs)
        return value if attrs is value.attrs else Obj(value.root, attrs, value.cls)
    if depth > 6:
        return value
    if isinstance(value, Params):
        return Params(anonymous(value.owner, depth + 1))  # type: ignore[arg-type]
    if isinstance(value, Optimizer):
        return Optimizer(tuple(anonymous(o, depth + 1) for o in value.over), value.node, value.cls_name)  # type: ignore[misc]
    if isinstance(value, (ParamGroups, StateDict)):
        return type(value)(anonymous(value.optimizer if isinstance(value, ParamGroups) else value.owner, depth + 1))  # type: ignore[arg-type]
    if isinstance(value, Container):
        return Container(tuple(anonymous(item, depth + 1) for item in value.items), value.keys, value.exact)
    if isinstance(value, Either):
        return either([anonymous(option, depth + 1) for option in value.options])
    if isinstance(value, Iterable):
        return Iterable(anonymous(value.element, depth + 1))
    if isinstance(value, BoundMethod):
        return BoundMethod(anonymous(value.owner, depth + 1), value.name)  # type: ignore[arg-type]
    if isinstance(value, Partial):
        return Partial(value.qname, tuple(anonymous(a, depth + 1) for a in value.args), tuple((k, anonymous(v, depth + 1)) for k, v in value.keywords))
    return value


def contained(value: Value, kind: Type[T], depth: int = 0) -> Tuple[T, ...]:
    """The values of `kind` that `value` is or holds in its dict/list/tuple items, nested or not."""
    if isinstance(value, kind):
        return (value,)
    if isinstance(value, Either) and depth < 6:
        return tuple(found for option in value.options for found in contained(option, kind, depth + 1))
    if isinstance(value, Container) and depth < 6:
        return tuple(found for item in value.items for found in contained(item, kind, depth + 1))
    return ()


def contained_on_runs(value: Value, kind: Type[T], runs: FrozenSet[tuple] = frozenset(), depth: int = 0) -> Tuple[Tuple[T, FrozenSet[tuple]], ...]:
    """`contained`, each value found with the branch outcomes every run on which `value` holds
    it takes: those of the options of the `Either`s on the way to it (`runs` as well)."""
    if isinstance(value, kind):
        return ((value, runs),)
    if isinstance(value, Either) and depth < 6:
        return tuple(found for option, guard in guarded_options(value) for found in contained_on_runs(option, kind, runs | guard, depth + 1))
    if isinstance(value, Container) and depth < 6:
        return tuple(found for item in value.items for found in contained_on_runs(item, kind, runs, depth + 1))
    return ()


def objects_in(value: Value) -> Tuple[Obj, ...]:
    """The module objects a value refers to: itself, or the items of a list of modules."""
    return contained(value, Obj)


def related_objects(value: Value, depth: int = 0) -> Tuple[Obj, ...]:
    """The module objects a value refers to or was derived from: the owners of parameters, what
    an optimizer or state dict is over, the items of containers, what a bound method belongs to,
    what a partial binds."""
    if isinstance(value, Obj):
        return (value,)
    if depth > 4:
        return ()
    if isinstance(value, (Params, BoundMethod)):
        return (value.owner,)
    if isinstance(value, Optimizer):
        return value.over
    if isinstance(value, StateDict):
        return related_objects(value.owner, depth + 1)
    if isinstance(value, (Container, Either)):
        return tuple(obj for item in (value.items if isinstance(value, Container) else value.options) for obj in related_objects(item, depth + 1))
    if isinstance(value, Iterable):
        return related_objects(value.element, depth + 1)
    if isinstance(value, Partial):  # what it binds reaches whoever calls it
        return tuple(obj for item in value.args + tuple(v for _, v in value.keywords) for obj in related_objects(item, depth + 1))
    return ()


def truth(value: Value) -> Optional[bool]:
    """The truth value of a value where it has one whatever runs: an object (a module, an
    optimizer, a function) is true, `None` and `False` are false, a literal list as long as its
    items; None for the rest (an unknown value, the options of an `Either`)."""
    if isinstance(value, (Obj, Fresh, Optimizer, BoundMethod, ShardFunction, ClassRef, Partial)):
        return True
    if isinstance(value, Constant):
        return bool(value.value)
    if isinstance(value, Container):
        return bool(value.items)
    return None
