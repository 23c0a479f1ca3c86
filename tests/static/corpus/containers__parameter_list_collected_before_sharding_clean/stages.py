def configure_stage(model, stage: int):
    """Freeze what the stage does not train; the parameters left to train."""
    for p in model.encoder.parameters():
        p.requires_grad = stage > 1
    return [p for p in model.parameters() if p.requires_grad]
