import torch


def pack(weight, dtype):
    """The full weight in the export dtype (every rank gathers it)."""
    return weight.full_tensor().to(dtype)


def export_scales(model, weight_name: str, dtype):
    """Each quantized layer's weight in the export dtype with its fp8 scale (amax over the fp8 range)."""
    scales = {}
    for index, layer in enumerate(model.layers):
        layer._amax = layer._amax.to(torch.float32)
        weight = getattr(getattr(layer, weight_name), "weight")
        scales[index] = (pack(weight.float(), dtype), layer._amax.float() / 448.0)
        scales[f"{index}.bias"] = pack(getattr(layer.linear, "bias").to(dtype), dtype)
    return scales
