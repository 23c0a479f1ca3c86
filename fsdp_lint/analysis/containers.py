"""Abstract containers: lists, tuples, dicts and iterables of abstract values (`analysis.values`),
and what subscripting, unpacking, iterating, growing and the builtins that read them give. No
walk state: the walker (`analysis.flow`) evaluates the expressions and asks these.
"""

from __future__ import annotations

from typing import Callable, Dict, Iterator, List, Optional, Tuple

from astroid import nodes

from fsdp_lint.analysis import known_apis, truths
from fsdp_lint.analysis.paths import EMPTY, Path
from fsdp_lint.analysis.values import (
    ANONYMOUS,
    UNKNOWN,
    WILDCARD,
    WHOLE_STATES,
    Constant,
    Container,
    Either,
    Iterable,
    Obj,
    Optimizer,
    ParamGroups,
    Params,
    Root,
    UNNAMED,
    StateDict,
    Truth,
    Value,
    WorldSize,
    constant,
    either,
    guarded,
    guarded_options,
    mapped_options,
    options_of,
    runs_through,
    size,
)

# Literal lists iterated item by item, in order, up to this length (longer ones as one element).
_UNROLLED = 16
# The lists an appended-to list may be, past which they are joined into one (`grown`).
_LIST_OPTIONS = 4
# The keys, values or items of a state dict (`list(state)`, `state.items()`), none of them known:
# there is one at least wherever the dict holds a tensor, and where it holds none what a loop over
# it does to it matters to no rule (`for k in list(state): state[k] = state[k].full_tensor()` leaves
# no shard behind on any run).
STATE_DICT_ENTRIES = Iterable(UNKNOWN, nonempty=True)

def subscript(base: Value, index: nodes.NodeNG, key: Value = UNKNOWN) -> Value:
    if isinstance(base, (ParamGroups, *WHOLE_STATES)):
        return base  # a group, or an entry of one; what a full state dict (or a file's) holds
    if isinstance(base, Obj):
        return base.child("*")
    if isinstance(base, StateDict) and isinstance(key, Constant) and key.value == known_apis.OPTIMIZER_STATE_KEY:
        # an optimizer's tensors, all of them (the owner may be an optimizer a caller passed;
        # of a module's state dict, its entry named so, a shard like the others)
        return base
    if isinstance(base, Optimizer):
        return base  # an optimizer cannot be indexed: the value is a collection of it (`state.optimizers[0]`)
    if isinstance(base, Iterable):
        # a list a comprehension built (`[m for m in model.modules() if ...][0]`): one of the
        # elements it produced, or, sliced, a list of them
        return base if isinstance(index, nodes.Slice) else base.element
    if isinstance(base, Container) and base.items:
        if isinstance(key, Constant) or isinstance(index, nodes.Const):
            return base.item(key.value if isinstance(key, Constant) else index.value)
        if not isinstance(index, nodes.Slice):
            return either(list(base.items))  # an entry named at run time (`models[name]`): one of them
    return UNKNOWN


def stored_in_state_dict(state: StateDict, key: Value) -> Value:
    """A state dict after `state[key] = value`: a constant key names one entry (`weights["step"]
    = step`), which leaves the others and the tensors they hold where they were, unless it is the
    optimizer's entry that holds all of them; a key named at run time may be each entry in turn
    (a loop that gathers every tensor), so what the dict then holds is not known."""
    if isinstance(key, Constant) and key.value != known_apis.OPTIMIZER_STATE_KEY:
        return state
    return UNKNOWN


def stored_item(container: Container, key: Value, value: Value) -> Container:
    """A dict or list after `container[key] = value`: a constant key of a dict replaces its
    entry or adds one; another key adds an unnamed entry, which may have replaced any of the
    dict's, the only one of an empty dict (`d[name] = m` after `d = {}`: exact); in a list the
    value is one more item it may hold."""
    if container.keys is not None and isinstance(key, Constant):
        keys = tuple(k for k in container.keys if k != key.value) + (key.value,)
        items = tuple(v for k, v in zip(container.keys, container.items) if k != key.value) + (value,)
        return Container(items, keys)
    if container.keys is not None:
        return dict_of(tuple(zip(container.keys, container.items)) + ((UNNAMED, value),), exact=container.keys == ())
    return Container(container.items + (value,))


def in_order(value: Value) -> Tuple[Value, ...]:
    """What a loop over a literal list or dict binds, item by item in order (a dict's keys);
    empty where it runs as a loop (an unknown or long sequence)."""
    if isinstance(value, Container) and 0 < len(value.items) <= _UNROLLED:
        return value.items if value.keys is None else _key_values(value.keys)
    return ()


def _key_values(keys: Tuple[object, ...]) -> Tuple[Value, ...]:
    """The values of a dict's keys: each named one's constant, an unnamed one unknown."""
    return tuple(UNKNOWN if key == UNNAMED else Constant(key) for key in keys)


def dict_of(entries: Tuple[Tuple[object, Value], ...], exact: bool = False) -> Container:
    """The dict that entries (key, value) make, in order, as a literal does: a named key's entry
    replaces the earlier one in place; an unnamed one (`UNNAMED`: a computed key, those of a
    `**` of a value whose keys are not known) is added, and may have replaced each earlier named
    entry, which then holds either value (`{MODEL_KEY: sd, **extra}["model"]` may be `extra`'s)."""
    keys: List[object] = []
    items: List[Value] = []
    for key, value in entries:
        if key == UNNAMED:
            items = [either([item, value]) if k != UNNAMED else item for k, item in zip(keys, items)]
        elif key in keys:
            items[keys.index(key)] = value
            continue
        keys.append(key)
        items.append(value)
    return Container(tuple(items), tuple(keys), exact)


def view(container: Value, method: str, args: List[Value]) -> Value:
    """`values()`, `items()`, `keys()`, `get(key)` or `pop(key)` of a dict the walk built: its entries in
    order, as a list of them, so that a loop over them runs each in turn (an unnamed entry's key
    unknown). A view holds one entry per item where the dict does (exact, or every key named)."""
    if not isinstance(container, Container):
        return UNKNOWN
    exact = container.exact or container.named
    if method == "values":
        return Container(container.items, exact=exact)
    if method == "items":
        keys = _key_values(container.keys) if container.keys is not None else (UNKNOWN,) * len(container.items)
        pairs = (Container((key, item), exact=True) for key, item in zip(keys, container.items))
        return Container(tuple(pairs), exact=exact)
    if method == "keys" and container.keys is not None:
        return Container(_key_values(container.keys), exact=exact)
    if method in ("get", "pop") and args and isinstance(args[0], Constant) and container.keys is not None:
        found = container.keys.index(args[0].value) if args[0].value in container.keys else None
        if found is None and not container.named:
            return UNKNOWN  # one of its unnamed entries, or the default
        if found is None and method == "pop" and len(args) == 1:
            return UNKNOWN  # `KeyError`
        return container.items[found] if found is not None else args[1] if len(args) > 1 else Constant(None)
    return UNKNOWN


def grown(value: Value, added: Value, once: bool = False) -> Value:
    """A list after it gains `added`'s items (`params.extend(...)`, `params += [...]`). Where the
    run passes here `once` and both lists are exact, its items then the added ones, exact
    (`optimizers.append(AdamW(...))` twice holds the two, one entry each). Otherwise each item
    once: an item stands for the objects it may be, so a loop that appends adds it once; a list
    of unknown length adds one item for its elements, and may have added none. Each list on the
    runs that gave it."""
    options: List[Tuple[Value, Path]] = []
    for option, guard in guarded_options(value):
        if not isinstance(option, Container) or option.keys is not None:
            options.append((option, guard))
        elif once and option.exact and isinstance(added, Container) and added.keys is None and added.exact:
            options.append((Container(option.items + added.items, exact=True), guard))
        elif isinstance(added, Container) and added.keys is None:
            options.append((Container(option.items + tuple(dict.fromkeys(v for v in added.items if v not in option.items))), guard))
        else:
            element = element_of(added)
            options += [(option, guard), (option if element in option.items else Container(option.items + (element,)), guard)]
    lists = [option for option, _ in options if isinstance(option, Container) and option.keys is None]
    if len(lists) > _LIST_OPTIONS:
        # Appends under conditions double the lists it may be at every one (`passes.append(p)`
        # under eight flags): past a few, it is one list of every item it may hold, or empty.
        union = Container(tuple(dict.fromkeys(item for option in lists for item in option.items)))
        options = [(option, guard) for option, guard in options if option not in lists] + [(union, EMPTY)] + [(Container(()), EMPTY)] * any(not option.items for option in lists)
    return guarded(options)


def given_away(value: Value) -> Value:
    """A list after a call whose code the caller does not see change it was given it (a
    function may append to the list it is passed): its items as they were, each one that may
    stand for several or none (`loosened`, for lists only). The value itself where it holds no
    exact list."""
    if not any(isinstance(o, Container) and o.keys is None and o.exact for o in options_of(value)):
        return value
    return mapped_options(value, lambda o: _loosened(o) if isinstance(o, Container) and o.keys is None else o)


def loosened(value: Value) -> Value:
    """A list or dict after code the walk does not follow into was given it, or changed it in a
    way the walk does not (`pop`, `clear`): its items as they were, one that may stand for
    several or none, a dict's keys unknown (it is still a dict: `"x" in d` asks its keys)."""
    return mapped_options(value, lambda o: _loosened(o) if isinstance(o, Container) and (o.keys is not None or o.exact) else o)


def _loosened(container: Container) -> Container:
    return Container(container.items, (UNNAMED,) * len(container.items) if container.keys is not None else None)


def removed(value: Value, key: Value) -> Value:
    """A dict after `d.pop(key)` or `del d[key]`: a constant key's entry is gone, the others
    stay (`config.pop("fsdp", None)` then `config.get("fsdp")` is None, as after `config["fsdp"]
    = None`). An unnamed entry may have been under that key, so it may now stand for none. A key
    named at run time, or a list's item, may be any of them (`loosened`)."""
    return mapped_options(value, lambda o: _removed(o, key) if isinstance(o, Container) and (o.keys is not None or o.exact) else o)


def _removed(container: Container, key: Value) -> Container:
    if container.keys is None or not isinstance(key, Constant):
        return _loosened(container)
    kept = [(k, item) for k, item in zip(container.keys, container.items) if k != key.value]
    return Container(tuple(item for _, item in kept), tuple(k for k, _ in kept), container.exact and container.named)


def unpacked(value: Value, count: int, deferred_to: Callable[[Root], Optional[str]]) -> Tuple[Value, ...]:
    """What `a, b = value` binds: a tuple's items, each option's where branches bound several
    (`return model, optimizer` on one arm, `return None, None` on another), and for the result of
    a call into a module not entered yet, its items (`value[0]`), so that what is done to them
    demands the module (`Project.demanded_modules`), which then gives the tuple; unknown for the
    rest (the items of other objects are no objects the walk can tell apart)."""
    if isinstance(value, Params) and count == 2:
        return (UNKNOWN, value)  # `for name, param in m.named_parameters()`
    if isinstance(value, WHOLE_STATES):
        return (value,) * count  # `for name, tensor in full_state_dict.items()`
    if isinstance(value, Container) and value.keys is None and len(value.items) == count:
        return value.items
    if isinstance(value, Obj) and not value.attrs and deferred_to(value.root) is not None:
        return (value.child(WILDCARD),) * count
    if isinstance(value, Either):  # an option that cannot be unpacked (another length, None) raised there
        options = [(unpacked(option, count, deferred_to), guard) for option, guard in guarded_options(value) if not unpacks_otherwise(option, count)]
        return tuple(guarded([(items[index], guard) for items, guard in options]) for index in range(count)) if options else (UNKNOWN,) * count
    return (UNKNOWN,) * count


def unpacks_otherwise(value: Value, count: int) -> bool:
    """Whether `a, b, ... = value` (`count` names) raises: a tuple of another length, a constant."""
    return isinstance(value, Constant) or isinstance(value, Container) and value.keys is None and len(value.items) != count


def next_item(element: Value) -> Value:
    """What a loop binds in its later passes where it binds `element` in its first: another
    member where the item is one (`for m in model.modules()`: each pass another module)."""
    if isinstance(element, Obj):
        last = element.attrs[-1] if element.attrs else ""
        fresh = last[:1] == "*" and last not in (WILDCARD, ANONYMOUS)
        return Obj(element.root, element.attrs[:-1] + (last + "'",), element.cls) if fresh else element
    if isinstance(element, Container) and element.keys is None:
        items = tuple(next_item(item) for item in element.items)
        return element if items == element.items else Container(items, exact=element.exact)
    if isinstance(element, Either):
        return mapped_options(element, next_item)
    return element


def element_of(value: Value) -> Value:
    """What iterating `value` binds. Of several values, the elements of those that hold one: an
    empty literal (`{}` where a loop added nothing) binds nothing."""
    if isinstance(value, Either):
        holding = [(option, guard) for option, guard in guarded_options(value) if not (isinstance(option, Container) and not option.items)]
        if holding and len(holding) < len(value.options):
            return guarded([(element_of(option), guard) for option, guard in holding])
        return mapped_options(value, element_of)
    if isinstance(value, Iterable):
        return value.element
    if isinstance(value, Obj):
        return value.child("*")
    if isinstance(value, Container) and value.items:
        return either(list(value.items)) if value.keys is None else UNKNOWN
    if isinstance(value, (Params, Optimizer)):
        return value  # parameters iterate as parameters; an optimizer is not iterable: a collection of it
    if isinstance(value, (ParamGroups, *WHOLE_STATES)):
        return value  # each group; each key, value or item of a full state dict (or a file's)
    return UNKNOWN


def held_modules(sequential: bool, args: List[Value]) -> Value:
    """The items of a `ModuleList`/`ModuleDict`/`Sequential` built from `args` (`sequential`:
    the last), as a subscript or a loop over it finds them (`layers[i]`, `for stage in stages`):
    `Sequential(a, b)` holds its arguments (one module given alone is its item too); the others,
    and `Sequential(OrderedDict(...))`, what the one list or dict given holds (a dict's values).
    What they are where the walk does not know: unknown."""
    if sequential and (len(args) > 1 or args and isinstance(args[0], Obj)):
        return either(list(args))
    if len(args) != 1:
        return UNKNOWN
    given = args[0]
    if isinstance(given, Container) and given.keys is not None:
        return either(list(given.items)) if given.items else UNKNOWN
    return element_of(given)


def spread_keywords(value: Value, fields: Tuple[str, ...]) -> List[Tuple[Dict[str, Value], Path]]:
    """The keywords a `**kwargs` spreads into a record's fields, for each dict it may be (a dict
    built key by key, `args["fsdp"] = cfg`, then `Config(**args)`), with the branch outcomes of
    the runs that give that dict; none where one of them is not a dict of known keys, all fields
    of the record."""
    spread = []
    for option, runs in guarded_options(value):
        if not isinstance(option, Container) or option.keys is None or not all(key in fields for key in option.keys):
            return []
        spread.append((dict(zip(option.keys, option.items)), runs))  # type: ignore[arg-type]
    return spread


def record_values(given: Dict[str, Value], spread: List[Tuple[Dict[str, Value], Path]], defaults: Dict[str, Value]) -> Dict[str, Value]:
    """A record's fields after its generated `__init__`: for each dict the `**` may spread, the
    arguments over the defaults, on the runs that spread that dict (the fields of one record are
    set together: `fsdp` is None on the runs where `fsdp2` is given); a field one of them leaves
    without a value stays unknown."""
    runs = [({**defaults, **given, **keywords}, guard) for keywords, guard in spread]
    return {
        name: guarded([(run[name], guard) for run, guard in runs])
        for name in runs[0][0] if all(name in run for run, _ in runs)
    }


def builtin_call(name: str, args: List[Value], keywords: Dict[Optional[str], Value]) -> Value:
    first = args[0] if args else UNKNOWN
    if name in ("list", "tuple", "filter", "sorted", "reversed", "iter", "set"):
        if name == "filter" and len(args) > 1:
            first = args[1]
        if isinstance(first, (Params, Iterable, Container)):
            return first
        if isinstance(first, Obj):
            return Iterable(first.child("*"))
        if isinstance(first, StateDict):
            return STATE_DICT_ENTRIES
        return UNKNOWN
    if name == "len":
        return size(first)
    if name == "int" and isinstance(first, WorldSize):  # `int(os.environ["WORLD_SIZE"])`
        return first
    if name == "next" and isinstance(first, Iterable):  # the first element; the default where there may be none
        return first.element if first.nonempty or len(args) < 2 else either([first.element, args[1]])
    if name in ("any", "all"):
        return any_or_all(name == "any", first)
    if name == "enumerate":
        if isinstance(first, Container) and first.exact and first.keys is None:  # each item with its index, in order
            return Container(tuple(Container((constant(index), item), exact=True) for index, item in enumerate(first.items)), exact=True)
        return Iterable(Container((UNKNOWN, element_of(first))))
    if name == "zip":
        return Iterable(Container(tuple(element_of(a) for a in args)))
    if name == "dict":
        if keywords and not args and None not in keywords:  # `dict(dit=dit, vae=vae)`
            return Container(tuple(keywords.values()), tuple(keywords))
        if len(args) == 1 and not keywords and all(_copied_whole(option) for option in options_of(first)):
            # a copy of a mapping holds its entries: of a state dict, the same tensors (its
            # DTensors where the module is sharded), each value what the state dict's is
            return first
        # what a mapping or pairs given hold, under keys not known
        return Container(tuple(args) + tuple(keywords.values()), (UNNAMED,) * (len(args) + len(keywords)))
    return UNKNOWN


def _copied_whole(value: Value) -> bool:
    """Whether `dict(value)` is a dict with `value`'s own entries, as the walk knows them: a
    state dict (a full one, a file's, too), a dict whose keys it knows."""
    return isinstance(value, (StateDict, *WHOLE_STATES)) or isinstance(value, Container) and value.keys is not None


def any_or_all(any_: bool, value: Value) -> Value:
    """`any(items)` (`any_`) or `all(items)` where the truth of the items is known or described
    (`truths.of_each`: a helper's result for each item, on the runs that give it): of each item
    of a literal list, or of every element of an iterable (true for `any` only where it produces
    one at least, false for `all` likewise)."""
    if isinstance(value, Container) and value.keys is None:
        items = [truths.of_each(item) for item in value.items]
        return truths.as_value(truths.disjunction(items) if any_ else truths.conjunction(items))
    if not isinstance(value, Iterable):
        return UNKNOWN
    each = truths.of_each(value.element)
    if each is None:
        return UNKNOWN
    # every element true (or false) decides both, where one is produced at least; none
    # produced makes `any` false and `all` true
    return truths.as_value(Truth(
        each.when_true if value.nonempty or not any_ else (),
        each.when_false if value.nonempty or any_ else (),
    ))


def constant_truth(value: Value) -> Optional[bool]:
    """The truth of a value that is a constant on every run; None where not known."""
    found = {bool(option.value) if isinstance(option, Constant) else None for option in options_of(value)}
    return found.pop() if len(found) == 1 else None


def nonempty(value: Value) -> bool:
    """Whether a comprehension over `value` produces one element at least, whichever value it
    may be: a loop over it runs through (`runs_through`), or it is a container whose items stand
    for one at least (`{type(m).__name__: m for m in models}` of a literal list, its keys maybe
    coinciding)."""
    return all(runs_through(o) or isinstance(o, Container) and bool(o.items) for o in options_of(value))


def param_owners(value: Value) -> Tuple[Obj, ...]:
    """The modules whose parameters an optimizer's `params` argument carries."""
    return tuple(owner for owner, _ in param_owners_on_runs(value))


def param_owners_on_runs(value: Value) -> Tuple[Tuple[Obj, Path], ...]:
    """`param_owners`, each with the branch outcomes every run on which the argument carries its
    parameters takes (`net.parameters()` of a `net` bound on two arms: each module on its arm's
    runs), so that an optimizer holds a model only on the runs that gave it that model."""
    found: Dict[Obj, Path] = {}
    for owner, runs in _param_owners_on_runs(value, EMPTY, 0):
        found[owner] = found[owner] & runs if owner in found else runs  # each once, on what all its ways share
    return tuple(found.items())


def params_taken(value: Value, depth: int = 0) -> Optional[int]:
    """The earliest point at which a list among the parameters `value` carries was collected
    (`Params.taken`); None where each is the parameters as they are when read."""
    if isinstance(value, Params):
        return value.taken
    if isinstance(value, (Either, Container, Iterable)) and depth < 4:
        items = value.options if isinstance(value, Either) else value.items if isinstance(value, Container) else (value.element,)
        found = [taken for taken in (params_taken(item, depth + 1) for item in items) if taken is not None]
        return min(found) if found else None
    return None


def _param_owners_on_runs(value: Value, runs: Path, depth: int) -> Iterator[Tuple[Obj, Path]]:
    if isinstance(value, Params):
        yield value.owner, runs
    elif isinstance(value, Either) and depth < 4:
        for option, guard in guarded_options(value):
            yield from _param_owners_on_runs(option, runs | guard, depth + 1)
    elif isinstance(value, (Container, Iterable)) and depth < 4:
        for item in value.items if isinstance(value, Container) else (value.element,):
            yield from _param_owners_on_runs(item, runs, depth + 1)
