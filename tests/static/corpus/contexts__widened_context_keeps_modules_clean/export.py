from torch import nn

from quant_utils import weight_update


def _export_weight(layer, dtype):
    """The layer's weight, scaled and cast to the export dtype, as a new frozen parameter."""
    packed = (layer.weight.detach() / layer.weight_scale).to(dtype)
    layer.weight = nn.Parameter(packed, requires_grad=False)


def _export_weights(layers, dtype):
    for layer in layers:
        _export_weight(layer, dtype)


def export_model(model, dtype):
    """Each group of layers that share an input in one update of its unit: a helper called with
    as many lists as there are groups (past a few, its calling contexts are widened, and a list
    of the sharded model's modules is what the update is about)."""
    for block in model.layers:
        with weight_update(model, [block.q, block.k, block.v]):
            _export_weights([block.q, block.k, block.v], dtype)
        with weight_update(model, [block.o]):
            _export_weights([block.o], dtype)
        with weight_update(model, [block.gate, block.up]):
            _export_weights([block.gate, block.up], dtype)
        with weight_update(model, [block.down]):
            _export_weights([block.down], dtype)
    with weight_update(model, [model.embed]):
        _export_weights([model.embed], dtype)
    with weight_update(model, [model.head]):
        _export_weights([model.head], dtype)
    last = model.layers[-1]
    with weight_update(model, [last.up, last.down]):
        _export_weights([last.up, last.down], dtype)
    return model
