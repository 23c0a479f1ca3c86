import contextlib

import torch

from parallel import wrap


@contextlib.contextmanager
def _fsdp2_no_sync(module):
    module.set_requires_gradient_sync(False)
    try:
        yield
    finally:
        module.set_requires_gradient_sync(True)


def no_sync_context(module, backend: str, enabled: bool):
    """Skip the gradient reduction of a micro-batch that is not the last, with each API's own call."""
    if not enabled:
        return contextlib.nullcontext()
    if backend == "fsdp":
        return module.no_sync()
    if backend == "fsdp2":
        return _fsdp2_no_sync(module)
    return contextlib.nullcontext()


def train(model, batches, backend: str, accumulation: int):
    model = wrap(model, backend)
    optimizer = torch.optim.AdamW(model.parameters())
    for step, batch in enumerate(batches):
        last = (step + 1) % accumulation == 0
        with no_sync_context(model, backend=backend, enabled=not last):
            model(batch).sum().backward()
        if last:
            optimizer.step()
            optimizer.zero_grad()
