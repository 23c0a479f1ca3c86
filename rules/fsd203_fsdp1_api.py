from __future__ import annotations

import re
from typing import Optional, Tuple

from astroid import nodes

from fsdp_lint.analysis.call_arguments import call_argument
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.known_apis import FSDP1_WRAPPERS
from fsdp_lint.fsdp1_api import INSTANCE_ATTRIBUTES, STATIC_METHODS
from fsdp_lint.engine.rule import Invalid, Rule, Valid
from fsdp_lint.violation import Edit, Fix

class Fsdp1Api(Rule):
    """An FSDP1 (`FullyShardedDataParallel`) API used on a module sharded with FSDP2's `fully_shard`.

    ## What it does
    Reports, on a module that `fully_shard` sharded (or one that holds sharded submodules):
    `model.no_sync()`, `model.summon_full_params(...)`, `model.clip_grad_norm_(...)`,
    `FSDP.summon_full_params(model)`, `FSDP.state_dict_type(model, ...)`,
    `FSDP.optim_state_dict(model, ...)`, FSDP1's other optimizer state-dict helpers
    (`FSDP.optim_state_dict_to_load(model, optim, osd)`, `FSDP.shard_full_optim_state_dict(osd,
    model)`, ...) and `model._handle`. `FSDP.fsdp_modules(model)` is not reported: it answers,
    truthfully, that the model holds no FSDP1 unit. `ShardedGradScaler` is not reported: in
    torch 2.13 it works with FSDP2 as `torch.amp.GradScaler` does (both skip the step on every
    rank when one rank's shard of a gradient overflows; `tests/runtime/test_grad_scalers.py`).
    Only a path on which the module holds FSDP2 shards counts: code that wraps a model with
    FSDP1 on one arm of `if cfg.fsdp_version == 1:` and shards it with `fully_shard` on the other
    may call FSDP1 API under the same test, here or in a function it passes `cfg` to (a test of
    the same attribute takes the same arm; `if cfg.fsdp_version:` is taken by version 2 too), or
    under a test of the module itself (`isinstance(model, FSDP)`, `isinstance(model, DDP)` where
    the other arm wraps it with DDP, `isinstance(model, FSDPModule)`, a helper that returns the
    version by the module's class): each arm sees the modules that take it.

    `--fix` rewrites a simple `with model.no_sync():` block into
    `model.set_requires_gradient_sync(False)` and a `try:` around the block's body whose `finally:`
    calls `model.set_requires_gradient_sync(True)`, so that sync comes back on every way out of the
    block. The fix is unsafe (`--unsafe-fixes`) where the function changes the sync state elsewhere
    too: `no_sync()` restored the state it found, the rewrite sets `True`.

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
    try:
        loss.backward()
    finally:
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

            def wrap(model, cfg):
                if cfg.fsdp_version == 1:
                    return FSDP(model)
                fully_shard(model)
                return model

            def step(model, cfg, loss):
                model = wrap(model, cfg)
                if cfg.fsdp_version == 1:    # the arm on which `wrap` used FSDP1
                    with model.no_sync():
                        loss.backward()
                    model.clip_grad_norm_(1.0)
                else:
                    model.set_requires_gradient_sync(False)
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                if isinstance(model, FSDP):  # the FSDP1 wrapper only
                    with FSDP.summon_full_params(model):
                        pass

            ddp = DistributedDataParallel(net)
            with ddp.no_sync():       # a DDP module: its own no_sync
                pass
            """
        ),
        Valid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard
            from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler

            def train(model, optimizer, batches):
                fully_shard(model)
                scaler = ShardedGradScaler()   # works with fully_shard modules too
                for batch in batches:
                    scaler.scale(model(batch).sum()).backward()
                    scaler.step(optimizer)
                    scaler.update()
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType, fully_shard

            def train(model, batches):
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)
                for batch in batches:
                    with model.no_sync():                                        # expect: FSD203
                        model(batch).sum().backward()
                    model.clip_grad_norm_(1.0)                                   # expect: FSD203
                with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT):  # expect: FSD203
                    state = model.state_dict()
                model.layers[0]._handle.reshard(True)                            # expect: FSD203
            """,
            fixed="""
            import torch
            from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType, fully_shard

            def train(model, batches):
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)
                for batch in batches:
                    model.set_requires_gradient_sync(False)
                    try:                                        # expect: FSD203
                        model(batch).sum().backward()
                    finally:
                        model.set_requires_gradient_sync(True)
                    model.clip_grad_norm_(1.0)                                   # expect: FSD203
                with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT):  # expect: FSD203
                    state = model.state_dict()
                model.layers[0]._handle.reshard(True)                            # expect: FSD203
            """,
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

                    def resume(model, optimizer, saved):
                        shard(model)
                        state = FullyShardedDataParallel.optim_state_dict_to_load(model, optimizer, saved)   # expect: FSD203
                        optimizer.load_state_dict(state)

                    def resume_full(model, optimizer, full):
                        shard(model)
                        state = FullyShardedDataParallel.shard_full_optim_state_dict(full, model=model)   # expect: FSD203
                        optimizer.load_state_dict(state)

                    def is_fsdp1(model):
                        shard(model)
                        return bool(FullyShardedDataParallel.fsdp_modules(model))   # answers truthfully: no FSDP1 unit
                    """,
            }
        ),
    ]

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        found = _fsdp1_call(node, flow)
        if found is None:
            return
        what, target, fix = found
        self.report(node, self.message.format(what=what, target=target), help=fix, fix=_no_sync_rewrite(node))


def _no_sync_rewrite(node: nodes.Call) -> Optional[Fix]:
    """`with m.no_sync():` + body -> `m.set_requires_gradient_sync(False)`, then the body as a
    `try:` whose `finally:` calls `m.set_requires_gradient_sync(True)`.

    The `finally` re-enables gradient sync on every way out of the block, as `no_sync()` did: a
    `break`, `continue`, `return` or exception in it (and any call can raise) would otherwise leave
    sync off for the rest of training (FSD205). The body's lines are not touched: they become the
    `try`'s body where they are, comments included.

    Safe, unless the rewrite can differ from `no_sync()`: `no_sync()` restored the state it found
    where the rewrite sets `True`, which differs where sync may already be off when the block starts
    (it is nested in another `no_sync()` block, or the scope calls `set_requires_gradient_sync`
    itself); and the rewrite evaluates the receiver twice (unless it is a name or an attribute of
    one). Those fixes are unsafe. What a caller did before calling the function is not seen.

    Only for the simple shape: the call is the `with` statement's only item, without `as`, its
    header is one line, and the body starts on the lines below.
    """
    statement = node.parent
    func = node.func
    if not (isinstance(func, nodes.Attribute) and func.attrname == "no_sync" and isinstance(statement, nodes.With)):
        return None
    if len(statement.items) != 1 or statement.items[0][1] is not None or node.args or node.keywords:
        return None
    header, last = statement.lineno, statement.body[-1].end_lineno
    if node.lineno != header or node.end_lineno != header or statement.body[0].lineno <= header or not last:
        return None
    lines = re.findall(_LINES, node.root().file_bytes.decode("utf-8"))
    if last > len(lines):
        return None
    raw = lines[header - 1].encode("utf-8")
    colon = re.match(rb"[ \t]*\)?[ \t]*:", raw[node.end_col_offset :])
    outer = raw[: statement.col_offset].decode("utf-8")
    first_body = lines[statement.body[0].lineno - 1]
    inner = first_body[: len(first_body) - len(first_body.lstrip(" \t"))]
    if colon is None or outer.strip(" \t") or not inner.startswith(outer) or len(inner) <= len(outer):
        return None
    newline = raw[len(raw.rstrip(b"\r\n")) :].decode() or "\n"
    receiver = func.expr.as_string()
    end_of_body = len(lines[last - 1].rstrip("\r\n").encode("utf-8"))
    edits = (
        Edit(header, statement.col_offset, header, node.end_col_offset + colon.end(),
             f"{receiver}.set_requires_gradient_sync(False){newline}{outer}try:"),
        Edit(last, end_of_body, last, end_of_body,
             f"{newline}{outer}finally:{newline}{inner}{receiver}.set_requires_gradient_sync(True)"),
    )
    if _sync_may_be_off(statement) or not _evaluated_freely(func.expr):
        return Fix.unsafe(*edits)
    return Fix.safe(*edits)


_LINES = r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z"  # lines as Python counts them (compiled on first use, by `re`'s cache)


def _sync_may_be_off(statement: nodes.With) -> bool:
    """Whether gradient sync may be off where the `with` starts: inside another `no_sync()` block
    of its scope, or in a scope that sets the sync state itself."""
    scope = statement.scope()
    for ancestor in statement.node_ancestors():
        if ancestor is scope:
            break
        if isinstance(ancestor, nodes.With) and any(_calls(item, "no_sync") for item, _ in ancestor.items):
            return True
    return any(_calls(call, "set_requires_gradient_sync") for call in scope.nodes_of_class(nodes.Call))


def _calls(node: nodes.NodeNG, method: str) -> bool:
    return isinstance(node, nodes.Call) and isinstance(node.func, nodes.Attribute) and node.func.attrname == method


def _evaluated_freely(expression: nodes.NodeNG) -> bool:
    """A name or a chain of attributes of one: evaluating it twice is evaluating it once."""
    while isinstance(expression, nodes.Attribute):
        expression = expression.expr
    return isinstance(expression, nodes.Name)


def _fsdp1_call(node: nodes.Call, flow: Flow) -> Optional[Tuple[str, str, str]]:
    """(what is called, on which sharded module, the FSDP2 replacement) for an FSDP1 call."""
    func = node.func
    qname = flow.qualified_name(func)
    if not isinstance(func, nodes.Attribute):
        return None
    owner, _, method = (qname or "").rpartition(".")
    static = STATIC_METHODS.get(method) if owner in FSDP1_WRAPPERS else None
    if static is not None:
        argument = call_argument(node, static.module_position, static.module_keyword)
        module = flow.sharded_object(argument, holding=True) if argument is not None else None
        if module is not None:
            return f"`FullyShardedDataParallel.{method}`", flow.shown(module), static.replacement
        return None
    receiver = flow.sharded_object(func.expr) if func.attrname in INSTANCE_ATTRIBUTES else None
    if receiver is not None:
        return f"`.{func.attrname}()`", flow.shown(receiver), INSTANCE_ATTRIBUTES[func.attrname]
    handle = func.expr
    if isinstance(handle, nodes.Attribute) and handle.attrname == "_handle":
        module = flow.sharded_object(handle.expr)
        if module is not None:
            return "`._handle` (the FSDP1 flat-parameter handle)", flow.shown(module), "use `model.unshard()` / `model.reshard()` on the fully_shard module"
    return None
