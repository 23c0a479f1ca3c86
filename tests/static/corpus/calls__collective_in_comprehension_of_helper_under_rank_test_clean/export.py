"""Gathers a sharded model's weights for a consolidated export."""


def gather_full_state(model):
    return {name: tensor.full_tensor().cpu() for name, tensor in model.state_dict().items()}
