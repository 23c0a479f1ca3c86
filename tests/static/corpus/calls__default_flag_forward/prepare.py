from parallel import apply_fsdp


def prepare_model(model, mesh, shard: bool = True):
    if shard:
        apply_fsdp(model, mesh)
    else:
        model.cuda()
    return model
