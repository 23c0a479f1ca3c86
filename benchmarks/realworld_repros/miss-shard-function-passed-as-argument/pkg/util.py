def configure_model(model, shard_fn, device):
    model = shard_fn(model)
    return model
