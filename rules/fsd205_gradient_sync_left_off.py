from __future__ import annotations

import ast
from typing import List

from astroid import nodes

from fsdp_lint.analysis.call_arguments import call_argument
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.values import Optimizer
from fsdp_lint.engine.rule import Invalid, Rule, ScreenedFile, Valid


class GradientSyncLeftOff(Rule):
    """`set_requires_gradient_sync(False)` never turned back on before `optimizer.step()`.

    ## What it does
    Reports `model.set_requires_gradient_sync(False)` in a function that later calls
    `optimizer.step()` (or `scaler.step(optimizer)`) and never calls
    `set_requires_gradient_sync` with anything but a literal `False` (`True`, or a flag such as
    `is_last_microbatch`).

    ## Why is this bad?
    With gradient sync off, backward skips the reduce-scatter: each rank keeps only the gradient
    of its own micro-batches, unreduced. If sync is not switched back on for the last
    micro-batch, the optimizer steps on per-rank gradients, the replicas' shards drift apart
    and training silently diverges. Torch never complains.

    ## Example
    ```python
    model.set_requires_gradient_sync(False)
    for micro_batch in micro_batches:
        model(micro_batch).sum().backward()
    optimizer.step()
    ```

    Use instead:
    ```python
    for i, micro_batch in enumerate(micro_batches):
        model.set_requires_gradient_sync(i == len(micro_batches) - 1)
        model(micro_batch).sum().backward()
    optimizer.step()
    ```
    """

    code = "FSD205"
    # Files that mention none of these (nor fully_shard) are not parsed: see fsdp_lint/engine/prefilter.py.
    SCAN_NAMES = frozenset({"set_requires_gradient_sync"})
    name = "gradient-sync-left-off"
    severity = "error"
    message = "gradient sync of `{target}` is turned off here and never back on before `optimizer.step()` (line {line}): ranks step on unreduced gradients"
    help = "call `{target}.set_requires_gradient_sync(True)` before the last micro-batch's backward"

    VALID = [
        Valid(
            """
            def train_step(model, optimizer, micro_batches):
                for i, mb in enumerate(micro_batches):
                    last = i == len(micro_batches) - 1
                    model.set_requires_gradient_sync(last)
                    model(mb).sum().backward()
                optimizer.step()

            def accumulate(model, optimizer, batches, accum):
                for step, batch in enumerate(batches):
                    if (step + 1) % accum:
                        model.set_requires_gradient_sync(False)
                    else:
                        model.set_requires_gradient_sync(True)
                    model(batch).sum().backward()
                    if (step + 1) % accum == 0:
                        optimizer.step()

            def no_step(model, batch):
                model.set_requires_gradient_sync(False)
                model(batch).sum().backward()
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            def train(model, batches, accum):
                fully_shard(model)
                optimizer = torch.optim.AdamW(model.parameters())
                for batch in batches:
                    model.set_requires_gradient_sync(False)                # expect: FSD205
                    for mb in batch.chunk(accum):
                        model(mb).sum().backward()
                    optimizer.step()
                    optimizer.zero_grad()
            """
        ),
        Invalid(
            {
                "accumulate.py": """
                    def backward_micro_batches(model, micro_batches):
                        for mb in micro_batches:
                            model(mb).sum().backward()
                    """,
                "train.py": """
                    from accumulate import backward_micro_batches

                    class Trainer:
                        def step(self, micro_batches):
                            self.model.set_requires_gradient_sync(False)    # expect: FSD205
                            backward_micro_batches(self.model, micro_batches)
                            self.scaler.step(self.optimizer)
                    """,
            }
        ),
    ]

    def __init__(self, reporter):
        super().__init__(reporter)
        self._disabled: List[nodes.Call] = []
        self._enabled = False
        self._steps: List[nodes.Call] = []

    @classmethod
    def may_fire_in(cls, file: ScreenedFile) -> bool:
        """Some `.set_requires_gradient_sync(False)` and some `.step(...)` call in the file."""
        attributes = {
            (node.func.attr, _literal_false(node)) for node in ast.walk(file.module)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        }
        return ("set_requires_gradient_sync", True) in attributes and any(name == "step" for name, _ in attributes)

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        func = node.func
        if not isinstance(func, nodes.Attribute):
            return
        if func.attrname == "set_requires_gradient_sync":
            argument = call_argument(node, 0, "requires_gradient_sync")
            if isinstance(argument, nodes.Const) and argument.value is False:
                self._disabled.append(node)
            else:
                self._enabled = True
        elif func.attrname == "step" and self._disabled and _is_optimizer_step(node, flow):
            self._steps.append(node)

    def on_function_end(self, flow: Flow) -> None:
        if not self._enabled and self._steps:
            for node in self._disabled:
                step = next((s for s in self._steps if (s.lineno, s.col_offset) > (node.lineno, node.col_offset)), None)
                if step is not None:
                    target = node.func.expr.as_string()
                    self.report(node, self.message.format(target=target, line=step.lineno), help=self.help.format(target=target))
        self._disabled, self._enabled, self._steps = [], False, []


def _literal_false(call: ast.Call) -> bool:
    """The stdlib-syntax twin of the test in `on_call`: the first argument, or the keyword, is `False`."""
    argument = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "requires_gradient_sync"), None)
    return isinstance(argument, ast.Constant) and argument.value is False


def _is_optimizer_step(node: nodes.Call, flow: Flow) -> bool:
    receiver = node.func.expr
    if isinstance(flow.value(receiver), Optimizer):
        return True
    text = receiver.as_string().lower()
    if "sched" in text:
        return False
    return "optim" in text or (text.endswith("scaler") and bool(node.args))
