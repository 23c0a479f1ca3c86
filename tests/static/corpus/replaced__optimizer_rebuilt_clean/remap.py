def remap_optimizer(optimizer, model, names):
    """Rebuild the optimizer's param groups over the model's current parameters, found by the
    names they had when the optimizer was built (their hyperparameters are kept)."""
    current = dict(model.named_parameters())
    groups = []
    for group in optimizer.param_groups:
        rebuilt = {key: value for key, value in group.items() if key != "params"}
        rebuilt["params"] = [current[names[param]] for param in group["params"]]
        groups.append(rebuilt)
    optimizer.param_groups.clear()
    for group in groups:
        optimizer.add_param_group(group)
