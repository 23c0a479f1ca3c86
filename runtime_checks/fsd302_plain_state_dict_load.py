"""Runtime check FSD302: ``load_state_dict`` of plain tensors into a sharded model."""

from typing import Any, Dict, List

import torch
import torch.nn as nn

from fsdp_lint.runtime import torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


def _managed_params(model: nn.Module) -> Dict[str, Any]:
    """State-dict key -> FSDPParam for every parameter an FSDP unit inside ``model`` manages."""
    forms: Dict[int, Any] = {}
    for module in model.modules():
        state = torch_shims.state_of(module)
        if state is not None:
            for fsdp_param in torch_shims.fsdp_params(state):
                forms.update((id(t), fsdp_param) for t in torch_shims.registered_forms(fsdp_param) if t is not None)
    if not forms:
        return {}
    return {
        name: forms[id(param)] for name, param in model.named_parameters(remove_duplicate=False) if id(param) in forms
    }


class PlainStateDictLoad(RuntimeCheck):
    """``model.load_state_dict(sd)`` of plain (full) tensors into a model whose parameters are sharded.

    ## What it does
    Before ``load_state_dict`` copies anything into a module that contains FSDP units, looks up
    each entry of the state dict: a plain tensor for a parameter that a unit manages is reported
    (DTensors, as ``get_model_state_dict``/``set_model_state_dict`` and DCP produce, are fine).

    ## Why it matters
    The parameters are DTensor shards: copying a full tensor fails with "got mixed
    torch.Tensor and DTensor", ``assign=True`` replaces the shards with plain tensors that FSDP
    no longer manages, and after a forward (while the root's parameters are all-gathered) the
    copy lands in the temporary unsharded tensor and is silently discarded at the next reshard.

    ## When
    At the ``load_state_dict`` call, before anything is copied. Often only rank 0 loads: the
    finding goes through the c10d store so the other ranks stop with the same error.
    """

    code = "FSD302"
    name = "plain-state-dict-load"

    def on_load_state_dict(self, module: nn.Module, state_dict: Any) -> None:
        if not isinstance(state_dict, dict):
            return
        managed = _managed_params(module)
        plain: List[str] = [
            key
            for key, value in state_dict.items()
            if key in managed and isinstance(value, torch.Tensor) and not torch_shims.is_dtensor(value)
        ]
        if not plain:
            return
        self.report(
            f"load_state_dict() was given {len(plain)} plain tensors for sharded parameters (e.g. `{plain[0]}`): "
            "torch fails with 'got mixed torch.Tensor and DTensor', or, with assign=True or while the "
            "parameters are all-gathered, silently drops the loaded values.",
            "load a full state dict with `set_model_state_dict(model, full_sd, options=StateDictOptions("
            "full_state_dict=True, broadcast_from_rank0=True))` (called on every rank), load a sharded "
            "checkpoint with `dcp.load`, or turn each tensor into a DTensor with "
            "`distribute_tensor(full, param.device_mesh, param.placements)` first.",
            key=plain[0],
        )
