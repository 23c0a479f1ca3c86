import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict


def export_weights(model, path):
    options = StateDictOptions(full_state_dict=True, cpu_offload=True)
    state = get_model_state_dict(model, options=options)
    torch.save(state, path)
