import torch


def pack(weight, dtype):
    """The full weight in the export dtype (every rank gathers it)."""
    return weight.full_tensor().to(dtype)


def export_scales(model, weight_name: str, dtype):
    """Each quantized layer's weight in the export dtype with its fp8 scale (amax over the fp8 range)."""
    model = model.to(dtype)  # expect: FSD204
    scales = {}
    for index, layer in enumerate(model.layers):
        scales[index] = (pack(getattr(layer, weight_name).weight, dtype), layer._amax / 448.0)
    return scales
