from __future__ import annotations

from typing import Optional, Tuple

from astroid import nodes

from fsdp_lint.analysis.flow import Flow, Point
from fsdp_lint.analysis.values import Obj
from fsdp_lint.engine.rule import Invalid, Rule, Valid


class ChildShardedAfterParent(Rule):
    """`fully_shard` on a submodule of a module that is already sharded.

    ## What it does
    Reports `fully_shard(child)` when an ancestor of `child` was passed to `fully_shard` earlier
    in the same function (directly or through a helper it called).

    ## Why is this bad?
    `fully_shard(parent)` already moved the child's parameters into the parent's unit as
    DTensors. Sharding the child afterwards fails inside torch with messages that do not name the
    mistake (`Invariant encountered: value was None`, `Cannot concatenate overlapping meshes`),
    and leaves the child half-initialised. FSDP2 must be applied bottom-up.

    ## Example
    ```python
    fully_shard(model)
    for layer in model.layers:
        fully_shard(layer)
    ```

    Use instead:
    ```python
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    ```
    A submodule replaced by a new module after the parent was sharded (`model.embed = Embedding(...)`)
    is a new object and may be sharded on its own.
    """

    code = "FSD102"
    name = "child-sharded-after-parent"
    message = "`fully_shard({child})` comes after `fully_shard({parent})` (line {line}) already sharded its parent"
    help = "apply fully_shard bottom-up: shard `{child}` before `{parent}`"

    VALID = [
        Valid(
            """
            from torch.distributed.fsdp import fully_shard

            for layer in model.layers:
                fully_shard(layer)
            fully_shard(model.model)
            fully_shard(model.lm_head)      # a sibling, not a child
            fully_shard(model)
            """
        ),
        Valid(
            """
            from torch.distributed.fsdp import fully_shard

            fully_shard(model)
            model.tok_embeddings = ResizedEmbedding(model.tok_embeddings)
            fully_shard(model.tok_embeddings)   # a new module, not managed by the root's unit
            """
        ),
        Valid(
            """
            from torch.distributed.fsdp import fully_shard

            def build(shard=True):
                model = Model()
                if shard:
                    for block in model.layers:
                        fully_shard(block)
                    fully_shard(model)
                return model

            def custom():
                model = build(shard=False)
                for block in model.layers:
                    fully_shard(block)
                fully_shard(model)
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            from torch.distributed.fsdp import fully_shard

            def parallelize(model):
                fully_shard(model)
                for layer in model.layers:
                    fully_shard(layer)      # expect: FSD102
            """
        ),
        Invalid(
            {
                "helpers.py": """
                    from torch.distributed.fsdp import fully_shard

                    def shard_root(model):
                        fully_shard(model, reshard_after_forward=False)
                    """,
                "train.py": """
                    from torch.distributed.fsdp import fully_shard
                    from helpers import shard_root

                    model = Transformer()
                    shard_root(model)
                    fully_shard(model.layers[0])    # expect: FSD102
                    """,
            }
        ),
    ]

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        module = flow.sharded_module(node)
        if module is None:
            return
        for child, runs in flow.objects_on_runs(module):
            parent = _earlier_ancestor(flow, child, flow.point(runs))
            if parent is not None:
                fields = {"child": flow.shown(child), "parent": flow.shown(parent[0]), "line": parent[1]}
                self.report(node, self.message.format(**fields), help=self.help.format(**fields))
                return


def _earlier_ancestor(flow: Flow, child: Obj, here: Point) -> Optional[Tuple[Obj, int]]:
    for event in flow.events_before(here, must=True):
        if event.guarded and not flow.is_fully_shard_call(event.node):
            continue  # a helper that shards only under its own condition (`if shard:`)
        if flow.contains(event.target, child, strict=not event.above, at=event.seq, must=True):
            return event.target, event.node.lineno
    return None
