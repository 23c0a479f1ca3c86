from __future__ import annotations

from typing import FrozenSet, List, Optional, Set, Tuple

from fsdp_lint.analysis import paths
from fsdp_lint.analysis.flags import Guard
from fsdp_lint.analysis.flow import Flow, ShardEvent
from fsdp_lint.analysis.values import Obj, Root, is_wildcard, options_of
from fsdp_lint.engine.rule import Invalid, Rule, Valid

Path = Tuple[str, ...]


class SharedParamAcrossUnits(Rule):
    """A tied parameter (embedding and output weight) split across two `fully_shard` units.

    ## What it does
    Reports a `fully_shard` call that puts one side of a tied or shared parameter in a different
    unit from the other side. Ties are read from the model's class
    (`self.output.weight = self.tok_embeddings.weight` in its methods) or from the function itself
    (`model.lm_head.weight = model.embed.weight`); units are the `fully_shard` calls of the same
    function (and of the helpers it calls), each module belonging to the innermost one that covers
    it. Sharding the two modules together (`fully_shard([model.embed, model.lm_head])`) or
    leaving both to their common parent is fine. A tie the class makes only under a flag of the
    object (`if self.tie_embeddings:`, set once in `__init__`) does not hold where a test of that
    flag on the same object is false (`if not model.tie_embeddings: <separate units>`), and no tie
    holds where a test of the two weights' identity is false (`if not embed.weight is
    head.weight:`, or a helper that returns that test: `if not weights_are_tied(embed, head):`).

    ## Why is this bad?
    `fully_shard` replaces the parameters of its unit with new sharded DTensor parameters. The
    other module still points at the old tensor, or a second unit shards the same tensor again:
    the tie is silently broken (two copies trained apart), or with uneven sharding the padded rows
    on the last rank are never updated. Torch 2.13 and later refuse it at `fully_shard` time;
    older versions train on without a word.

    ## Example
    ```python
    model.output.weight = model.tok_embeddings.weight
    fully_shard(model.tok_embeddings)
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)               # the root unit holds `output`, the tied weight's other side
    ```

    Use instead:
    ```python
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)               # embeddings and output in the same (root) unit
    # or: fully_shard([model.tok_embeddings, model.output])
    ```
    """

    code = "FSD104"
    name = "shared-param-across-units"
    severity = "error"
    message = "`{a}` and `{b}` share one parameter, but `{a_module}` is sharded in one unit (line {a_line}) and `{b_module}` in another (line {b_line})"
    help = "shard the common parent instead, or group both: `fully_shard([{a_module}, {b_module}])`"

    VALID = [
        Valid(
            """
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            class Transformer(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.tok_embeddings = nn.Embedding(100, 8)
                    self.layers = nn.ModuleList([Block() for _ in range(2)])
                    self.output = nn.Linear(8, 100)
                    self.output.weight = self.tok_embeddings.weight

            def root_holds_both():
                model = Transformer()
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)

            def grouped():
                model = Transformer()
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard([model.tok_embeddings, model.output])
                fully_shard(model)
            """
        ),
        Valid(
            """
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            class Transformer(nn.Module):
                def __init__(self, tie_embeddings: bool):
                    super().__init__()
                    self.tok_embeddings = nn.Embedding(100, 8)
                    self.output = nn.Linear(8, 100)
                    self.tie_embeddings = tie_embeddings
                    if self.tie_embeddings:
                        self.output.weight = self.tok_embeddings.weight

            def shard(model: Transformer):
                if not model.tie_embeddings:       # separate units only when nothing is tied
                    fully_shard(model.tok_embeddings)
                    fully_shard(model.output)
                fully_shard(model)

            shard(Transformer(tie_embeddings=True))
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            from torch.distributed.fsdp import fully_shard

            def build():
                model = Transformer()
                model.lm_head.weight = model.embed.weight
                fully_shard(model.embed)
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)                 # expect: FSD104
            """
        ),
        Invalid(
            {
                "model.py": """
                    from torch import nn

                    class Transformer(nn.Module):
                        def __init__(self):
                            super().__init__()
                            self.tok_embeddings = nn.Embedding(100, 8)
                            self.layers = nn.ModuleList([Block() for _ in range(2)])
                            self.output = nn.Linear(8, 100)
                            self.output.weight = self.tok_embeddings.weight
                    """,
                "train.py": """
                    from torch.distributed.fsdp import fully_shard
                    from model import Transformer

                    def main():
                        model = Transformer()
                        for layer in model.layers:
                            fully_shard(layer)
                        fully_shard(model.tok_embeddings)
                        fully_shard(model.output)          # expect: FSD104
                        fully_shard(model)
                    """,
            }
        ),
    ]

    def on_function_end(self, flow: Flow) -> None:
        reported: Set[int] = set()
        for root, a, b, guards, tied_on in _ties(flow):
            unit_a = _unit(flow, Obj(root, a[:-1]))
            unit_b = _unit(flow, Obj(root, b[:-1]))
            if unit_a is None or unit_b is None or unit_a.node is unit_b.node or not paths.compatible(unit_a.path, unit_b.path):
                continue
            if unit_a.inherited or unit_b.inherited:
                continue  # a caller made one: it holds both (this walk's comes back to it) and reports them, once
            both = unit_a.path | unit_b.path
            if not paths.compatible(tied_on | _tied(flow, root, a, b), both) or any(flow.flag_value(both, Obj(root, flag), test) is (not value) for flag, test, value in guards):
                continue  # the two units are made only where the flag that ties them is off, or the two are not one
            later = unit_a if unit_a.seq > unit_b.seq else unit_b
            if id(later.node) in reported:
                continue
            reported.add(id(later.node))
            fields = {
                "a": flow.shown(Obj(root, a)), "b": flow.shown(Obj(root, b)),
                "a_module": flow.shown(Obj(root, a[:-1])), "b_module": flow.shown(Obj(root, b[:-1])),
                "a_line": unit_a.node.lineno, "b_line": unit_b.node.lineno,
            }
            self.report(later.node, self.message.format(**fields), help=self.help.format(**fields))


def _ties(flow: Flow) -> List[Tuple[Root, Path, Path, FrozenSet[Guard], paths.Path]]:
    """Tied parameter paths of the objects this function shards, with the flags of the object
    they are tied under and the branches they are tied on: from their class, or assigned here
    (a parameter or module of the object set to another: `Project.shares_parameters`)."""
    found: List[Tuple[Root, Path, Path, FrozenSet[Guard], paths.Path]] = []
    for root in dict.fromkeys(e.target.root for e in flow.events):
        for a, b, guards in flow.project.class_facts(flow.classes.get(root)).ties:
            found.append((root, a, b, guards, paths.EMPTY))
    for assignment in flow.attr_assignments:
        owner = assignment.owner
        # of the objects the value may be (`model` bound on two branches), the owner's own
        for value in options_of(assignment.value) if isinstance(owner, Obj) else ():
            if isinstance(value, Obj) and owner.root == value.root and value.attrs:
                a = owner.attrs + (assignment.attr,)
                cls = flow.classes.get(owner.root)
                if a != value.attrs and not any(map(is_wildcard, a + value.attrs)) and all(
                    flow.project.shares_parameters(cls, side) for side in (a, value.attrs)
                ):
                    found.append((owner.root, a, value.attrs, frozenset(), assignment.path))
    return found


def _tied(flow: Flow, root: Root, a: Path, b: Path) -> paths.Path:
    """What the tie makes true on a run, as literals about objects: the two parameters are one
    object (`embed.weight is head.weight`), and they and their modules are there (not None)."""
    sides = [flow.canonical(Obj(root, a)), flow.canonical(Obj(root, b))]
    found = {paths.same((sides[0].root, sides[0].attrs), (sides[1].root, sides[1].attrs), True)}
    for obj in sides + [flow.canonical(Obj(root, a[:-1])), flow.canonical(Obj(root, b[:-1]))]:
        found.add(paths.flag(obj.root, obj.attrs, True))
    return frozenset(found)


def _unit(flow: Flow, module: Obj) -> Optional[ShardEvent]:
    """The innermost shard call covering `module`: the unit that manages its parameters."""
    covering = [e for e in flow.events if flow.contains(e.target, module)]
    return max(covering, key=lambda e: len(e.target.attrs)) if covering else None
