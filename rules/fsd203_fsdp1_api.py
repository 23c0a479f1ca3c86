from __future__ import annotations

from typing import Optional, Tuple

from astroid import nodes

from fsdp_lint.analysis.conditions import fsdp_version_branch
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.values import Obj
from fsdp_lint.engine.rule import Invalid, Rule, Valid
from fsdp_lint.violation import Edit

FSDP1_CLASSES = (
    "torch.distributed.fsdp.FullyShardedDataParallel",
    "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel",
)
SHARDED_GRAD_SCALER = frozenset(
    {"torch.distributed.fsdp.sharded_grad_scaler.ShardedGradScaler", "torch.distributed.fsdp.ShardedGradScaler"}
)
# FSDP1 instance methods, and what replaces each with fully_shard.
METHODS = {
    "no_sync": "call `model.set_requires_gradient_sync(False)` for the micro-batches that must not sync, and `True` before the last one",
    "summon_full_params": "use `model.unshard()` ... `model.reshard()`, or `param.full_tensor()` for one parameter",
    "clip_grad_norm_": "use `torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)`: it handles DTensor gradients",
}
# FSDP1 static methods called as `FSDP.<name>(model, ...)`.
STATIC_METHODS = {
    "summon_full_params": METHODS["summon_full_params"],
    "clip_grad_norm_": METHODS["clip_grad_norm_"],
    "state_dict_type": "use `get_model_state_dict` / `set_model_state_dict` with `StateDictOptions` (torch.distributed.checkpoint.state_dict)",
    "set_state_dict_type": "use `get_model_state_dict` / `set_model_state_dict` with `StateDictOptions` (torch.distributed.checkpoint.state_dict)",
    "optim_state_dict": "use `get_optimizer_state_dict(model, optimizer)`",
    "full_optim_state_dict": "use `get_optimizer_state_dict(model, optimizer, options=StateDictOptions(full_state_dict=True))`",
}


class Fsdp1Api(Rule):
    """An FSDP1 (`FullyShardedDataParallel`) API used on a module sharded with FSDP2's `fully_shard`.

    ## What it does
    Reports, on a module that `fully_shard` sharded (or one that holds sharded submodules):
    `model.no_sync()`, `model.summon_full_params(...)`, `model.clip_grad_norm_(...)`,
    `FSDP.summon_full_params(model)`, `FSDP.state_dict_type(model, ...)`,
    `FSDP.optim_state_dict(model, ...)`, `model._handle`, and `ShardedGradScaler` built next to
    FSDP2 sharding. Code under a test that tells FSDP1 from FSDP2 (`isinstance(m, FSDP)`,
    `fsdp_version(m) == 1`, `self.is_fsdp2`, `hasattr(m, "no_sync")`) is not reported.

    `--fix` rewrites a simple `with model.no_sync():` block into
    `model.set_requires_gradient_sync(False)`, the block's body, `model.set_requires_gradient_sync(True)`.

    ## Why is this bad?
    `fully_shard` modules are not `FullyShardedDataParallel` instances. The instance methods do
    not exist (an `AttributeError` after the model was built and the data loaded); the static
    ones find no FSDP1 unit and fail with unrelated errors or, for `summon_full_params`, silently
    do nothing, so the "full" parameters you read are still shards.

    ## Example
    ```python
    fully_shard(model)
    with model.no_sync():
        loss.backward()
    model.clip_grad_norm_(1.0)
    ```

    Use instead:
    ```python
    fully_shard(model)
    model.set_requires_gradient_sync(False)
    loss.backward()
    model.set_requires_gradient_sync(True)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    ```
    """

    code = "FSD203"
    name = "fsdp1-api"
    severity = "error"
    message = "{what} is FSDP1 API, but `{target}` is sharded with FSDP2's fully_shard"
    help = "{fix}"

    VALID = [
        Valid(
            """
            import torch
            from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, fully_shard

            def step(model, fsdp_version, loss):
                fully_shard(model)
                if fsdp_version == 1:
                    with model.no_sync():
                        loss.backward()
                    model.clip_grad_norm_(1.0)
                else:
                    model.set_requires_gradient_sync(False)
                    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                if isinstance(model, FSDP):
                    with FSDP.summon_full_params(model):
                        pass
                if not hasattr(model, "no_sync"):
                    return
                model.no_sync()

            ddp = DistributedDataParallel(net)
            with ddp.no_sync():       # a DDP module: its own no_sync
                pass
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType, fully_shard
            from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler

            def train(model, batches):
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)
                scaler = ShardedGradScaler()                                     # expect: FSD203
                for batch in batches:
                    with model.no_sync():                                        # expect: FSD203
                        model(batch).sum().backward()
                    model.clip_grad_norm_(1.0)                                   # expect: FSD203
                with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT):  # expect: FSD203
                    state = model.state_dict()
                model.layers[0]._handle.reshard(True)                            # expect: FSD203
            """
        ),
        Invalid(
            {
                "parallel.py": """
                    from torch.distributed.fsdp import fully_shard

                    def shard(model):
                        for block in model.blocks:
                            fully_shard(block)
                        fully_shard(model)
                    """,
                "evaluate.py": """
                    from torch.distributed.fsdp import FullyShardedDataParallel
                    from parallel import shard

                    def export(model):
                        shard(model)
                        with FullyShardedDataParallel.summon_full_params(model):   # expect: FSD203
                            return {k: v.clone() for k, v in model.state_dict().items()}
                    """,
            }
        ),
    ]

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        found = _fsdp1_call(node, flow)
        if found is None or fsdp_version_branch(flow):
            return
        what, target, fix = found
        self.report(node, self.message.format(what=what, target=target), help=fix, fix=_no_sync_rewrite(node))


def _no_sync_rewrite(node: nodes.Call) -> Optional[Edit]:
    """`with m.no_sync():` + body -> `m.set_requires_gradient_sync(False)`, body, `...(True)`.

    Only for the simple shape: the call is the `with` statement's only item, without `as`, and the
    body sits on its own lines indented deeper than the `with` (so it can be dedented verbatim,
    comments included).
    """
    statement = node.parent
    func = node.func
    if not (isinstance(func, nodes.Attribute) and func.attrname == "no_sync" and isinstance(statement, nodes.With)):
        return None
    if len(statement.items) != 1 or statement.items[0][1] is not None or node.args or node.keywords:
        return None
    lines = node.root().file_bytes.decode("utf-8").splitlines(keepends=True)
    first, last = statement.body[0].lineno, statement.body[-1].end_lineno
    if first <= statement.lineno or not last:
        return None
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    outer = lines[statement.lineno - 1][: statement.col_offset]
    inner = lines[first - 1][: len(lines[first - 1]) - len(lines[first - 1].lstrip())]
    if outer.strip() or not inner.startswith(outer) or len(inner) <= len(outer):
        return None
    body = []
    for line in lines[first - 1 : last]:
        text = line.rstrip("\r\n")
        if text.strip() and not text.startswith(inner):
            return None  # a continuation line less indented than the body: not a simple shape
        body.append(outer + text[len(inner) :] if text.strip() else "")
    receiver = func.expr.as_string()
    replacement = newline.join(
        [f"{receiver}.set_requires_gradient_sync(False)"] + body + [f"{outer}{receiver}.set_requires_gradient_sync(True)"]
    )
    end_text = lines[last - 1].rstrip("\r\n")
    return Edit(statement.lineno, statement.col_offset, last, len(end_text.encode("utf-8")), replacement)


def _fsdp1_call(node: nodes.Call, flow: Flow) -> Optional[Tuple[str, str, str]]:
    """(what is called, on which sharded module, the FSDP2 replacement) for an FSDP1 call."""
    func = node.func
    qname = flow.qualified_name(func)
    if qname in SHARDED_GRAD_SCALER:
        sharded = next((e.target for e in flow.events), None)
        if sharded is None:
            return None
        return "`ShardedGradScaler`", sharded.display, "use `torch.amp.GradScaler`: it handles the DTensor gradients of fully_shard modules"
    if not isinstance(func, nodes.Attribute):
        return None
    owner, _, method = (qname or "").rpartition(".")
    if owner in FSDP1_CLASSES and method in STATIC_METHODS and node.args:
        module = flow.value(node.args[0])
        if isinstance(module, Obj) and flow.holds_shards_known_here(module):
            return f"`FullyShardedDataParallel.{method}`", module.display, STATIC_METHODS[method]
        return None
    receiver = flow.value(func.expr)
    if func.attrname in METHODS and isinstance(receiver, Obj) and flow.may_be_sharded(receiver) and flow.holds_shards_known_here(receiver):
        return f"`.{func.attrname}()`", receiver.display, METHODS[func.attrname]
    handle = func.expr
    if isinstance(handle, nodes.Attribute) and handle.attrname == "_handle":
        module = flow.value(handle.expr)
        if isinstance(module, Obj) and flow.may_be_sharded(module) and flow.holds_shards_known_here(module):
            return "`._handle` (the FSDP1 flat-parameter handle)", module.display, "use `model.unshard()` / `model.reshard()` on the fully_shard module"
    return None
