from torch import nn


def get_layer_list(model: nn.Module) -> nn.ModuleList:
    """The decoder layers of any Hugging Face model: its one list of blocks of the expected length."""
    n_layers = model.config.num_hidden_layers
    candidates = [m for m in model.base_model.modules() if isinstance(m, nn.ModuleList) and len(m) == n_layers]
    assert len(candidates) == 1, f"expected one list of {n_layers} layers, found {len(candidates)}"
    return candidates[0]
