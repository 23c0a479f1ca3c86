import contextlib


@contextlib.contextmanager
def _deferred_reduce(model, enabled):
    model.set_requires_gradient_sync(enabled)
    try:
        yield
    finally:
        model.set_requires_gradient_sync(True)


def accumulation_context(model, reduce_now):
    if hasattr(model, "set_requires_gradient_sync"):
        return _deferred_reduce(model, reduce_now)
    if not reduce_now and hasattr(model, "no_sync"):
        return model.no_sync()
    return contextlib.nullcontext()
