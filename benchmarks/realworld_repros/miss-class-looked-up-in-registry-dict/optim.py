from torch.optim import AdamW


def build_optimizer(model, lr):
    groups = model.get_param_groups()
    return AdamW(
        [
            {"params": groups["matrix_params"]},
            {"params": groups["vector_params"], "weight_decay": 0.0},
            {"params": groups["head_params"], "weight_decay": 0.0},
        ],
        lr=lr,
    )
