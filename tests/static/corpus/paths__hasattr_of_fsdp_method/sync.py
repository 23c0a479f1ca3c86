import contextlib


def sync_ctx(model, sync=True):
    """Gradient accumulation for whichever wrapper the model has."""
    if hasattr(model, "set_requires_gradient_sync"):
        return model.no_sync() if not sync else contextlib.nullcontext()  # expect: FSD203
    elif not sync and hasattr(model, "no_sync"):
        return model.no_sync()
    return contextlib.nullcontext()
