from optimizers import Lion, ScheduledAdamW


def param_groups(model, weight_decay: float):
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


def get_optimizer(name: str, model, lr: float):
    if name == "lion":
        return Lion(param_groups(model, 0.1), lr=lr)
    return ScheduledAdamW(model.parameters(), lr=lr)
