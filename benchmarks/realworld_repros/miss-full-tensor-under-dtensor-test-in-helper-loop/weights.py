from torch.distributed.tensor import DTensor


def gather_full_state(model):
    full = {}
    for key, value in model.state_dict().items():
        if isinstance(value, DTensor):
            value = value.full_tensor()
        full[key] = value.cpu()
    return full
