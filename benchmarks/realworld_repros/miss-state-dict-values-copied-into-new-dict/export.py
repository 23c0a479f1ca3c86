def cpu_state(model):
    return {key: value.cpu() for key, value in model.state_dict().items()}
