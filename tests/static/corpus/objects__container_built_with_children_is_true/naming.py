import torch


def _unwrap(model):
    """DataParallel, DDP and `torch.compile` wrappers are stripped; a sharded model is kept."""
    if isinstance(model, (torch.nn.DataParallel, torch.nn.parallel.DistributedDataParallel)):
        model = model.module
    if isinstance(model, torch._dynamo.eval_frame.OptimizedModule):
        model = model._orig_mod
    return model


def unique_names(models):
    """Each model under its class's name, numbered where several share one."""
    by_class = {}
    for model in models:
        model = _unwrap(model)
        name = type(model).__name__
        if name in by_class:
            by_class[name].append(model)
        else:
            by_class[name] = [model]
    named = {}
    for name, group in by_class.items():
        if len(group) > 1:
            for index, model in enumerate(group):
                named[f"{name}{index}"] = model
        else:
            named[name] = group[0]
    return named
