def use_fp32_master_weights(model):
    """The checkpoint is stored in bf16; the optimizer keeps fp32 master weights."""
    model.float()  # expect: FSD204
    return model
