def calibrate(model):
    """Temperature scaling in fp32 before the second phase."""
    model.temperature = model.temperature.float()
    return model
