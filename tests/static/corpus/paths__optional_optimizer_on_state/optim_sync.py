from contextlib import contextmanager


@contextmanager
def optimizer_follows_sharding(optimizer, model):
    """Lets a framework take an optimizer built over the plain model: the parameters are named
    on entry, and once the block has sharded the model each param group is pointed at the new
    (DTensor) parameters of the same names."""
    names = {param: name for name, param in model.named_parameters()}
    yield
    sharded = dict(model.named_parameters())
    for group in optimizer.param_groups:
        group["params"] = [sharded[names[param]] for param in group["params"]]
