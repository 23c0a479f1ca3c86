def finalize_precision(model, fp32_head: bool):
    """Weights were loaded in bf16: the final norm and the output head go back to fp32 for a stable loss."""
    if fp32_head:
        model.norm.float()
        model.output.float()
    return model
