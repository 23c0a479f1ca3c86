from torch.optim import AdamW


def build_optimizer(model, config):
    groups = model.get_param_groups()
    return AdamW(
        [
            {"params": groups["matrix_params"], "lr": config.lr},
            {"params": groups["vector_params"], "lr": config.lr, "weight_decay": 0.0},
            {"params": groups["head_params"], "lr": config.lr * 0.5, "weight_decay": 0.0},
        ],
        betas=(0.9, 0.95),
    )
