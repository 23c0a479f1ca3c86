from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FSDPModule


def _to_cpu(state):
    out = {}
    for key, value in state.items():
        out[key] = value.cpu()
    return out


def gathered_state(model):
    state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    return _to_cpu(state)


def save_checkpoint(path, model):
    if isinstance(model, FSDPModule):
        model.save(path, _state_dict=gathered_state(model))
        model.export(path + ".export", _state_dict={})
    else:
        model.save(path)


def save_snapshot(path, model):
    model.save(path)
