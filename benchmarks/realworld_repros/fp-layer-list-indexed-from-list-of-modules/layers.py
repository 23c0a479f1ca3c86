from torch import nn


def get_layer_list(model):
    candidates = [m for m in model.base_model.modules() if isinstance(m, nn.ModuleList)]
    assert len(candidates) == 1, "could not find the list of layers"
    return candidates[0]
