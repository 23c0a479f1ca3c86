def _append_group(groups, named, lr):
    groups.append({"params": [param for _, param in named], "lr": lr})


def build_param_groups(model, lr):
    groups = []
    named = [(str(index), param) for index, param in enumerate(model.parameters()) if param.requires_grad]
    if named:
        _append_group(groups, named, lr)
    return groups
