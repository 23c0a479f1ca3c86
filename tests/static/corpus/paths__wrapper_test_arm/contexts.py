import contextlib

from torch.distributed.fsdp import FSDPModule
from torch.nn.parallel import DistributedDataParallel as DDP


@contextlib.contextmanager
def microbatch_context(model, index: int, count: int):
    with contextlib.ExitStack() as stack:
        last = index == count - 1
        if isinstance(model, FSDPModule):
            model.set_is_last_backward(last)
            if not last:
                stack.enter_context(model.no_sync())  # expect: FSD203
        if isinstance(model, DDP) and not last:
            stack.enter_context(model.no_sync())
        yield
