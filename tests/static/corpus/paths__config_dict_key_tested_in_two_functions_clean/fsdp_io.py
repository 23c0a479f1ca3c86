from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict


def fsdp2_load_model_states(model, state_dict):
    options = StateDictOptions(full_state_dict=True, broadcast_from_rank0=True)
    set_model_state_dict(model, state_dict, options=options)
