"""Runtime check FSD201: forward of an FSDP module that did not go through FSDP's hooks."""

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


class ForwardBypass(RuntimeCheck):
    """An FSDP module's ``forward`` ran without FSDP's pre/post-forward hooks (``m.forward(x)``).

    ## What it does
    Every ``FSDP<Cls>`` class gets a ``forward`` that reads the unit's training state before
    running the user's ``forward``: FSDP's pre-forward hook sets it to FORWARD (PRE_BACKWARD
    while activation checkpointing recomputes), its post-forward hook back to IDLE. An IDLE
    state inside ``forward`` therefore means the hooks were skipped: ``model.forward(x)``,
    ``block.forward(h)`` from a parent, or a method calling ``self.forward`` that was not
    registered with ``register_fsdp_forward_method``.

    ## Why it matters
    If the parameters are still sharded, torch fails later with "got mixed torch.Tensor and
    DTensor". If they happen to be unsharded (after a ``no_grad`` forward of the root, after
    ``unshard()``), the forward runs, but its gradients are never reduce-scattered and the
    unit's sharded parameters never change: a silent divergence.

    ## When
    At the start of the bypassing forward, before any op touches the parameters.
    """

    code = "FSD201"
    name = "forward-bypass"

    def on_forward(self, module: nn.Module) -> None:
        state = torch_shims.state_of(module)
        if state is None or not torch_shims.is_idle(state):
            return
        where = naming.describe(module)
        if any(torch_shims.group_is_unsharded(g) for g in torch_shims.param_groups(state)):
            consequence = (
                "Its parameters happen to be unsharded right now, so it runs, but its gradients "
                "will not be reduce-scattered and its sharded parameters will not be updated: "
                "the ranks silently train different models."
            )
        else:
            consequence = (
                "Its parameters are still sharded DTensors; torch would fail with "
                "'got mixed torch.Tensor and DTensor'."
            )
        self.report(
            f"forward() of {where} was called directly, bypassing FSDP's pre/post-forward hooks. "
            + consequence,
            "call the module itself (`module(x)`, not `module.forward(x)`); for another entry "
            "point, `register_fsdp_forward_method(module, 'method_name')` after fully_shard.",
            key=naming.module_path(module),
        )
