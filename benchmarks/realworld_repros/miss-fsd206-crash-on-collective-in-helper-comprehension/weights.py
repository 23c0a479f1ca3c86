def gather_full_state(model):
    return {key: value.full_tensor().cpu() for key, value in model.state_dict().items()}
