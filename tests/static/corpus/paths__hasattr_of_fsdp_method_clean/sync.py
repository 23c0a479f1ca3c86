import contextlib


@contextlib.contextmanager
def _fsdp2_no_sync(module, sync):
    module.set_requires_gradient_sync(sync, recurse=True)
    try:
        yield
    finally:
        module.set_requires_gradient_sync(True, recurse=True)


def sync_ctx(model, sync=True):
    """Gradient accumulation for whichever wrapper the model has."""
    if hasattr(model, "set_requires_gradient_sync"):
        return _fsdp2_no_sync(model, sync)
    elif not sync and hasattr(model, "no_sync"):
        return model.no_sync()
    return contextlib.nullcontext()
