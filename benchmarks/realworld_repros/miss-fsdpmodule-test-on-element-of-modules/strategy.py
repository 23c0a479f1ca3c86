from torch.distributed.fsdp import FSDPModule


def set_backward_sync(model, sync: bool):
    """Every FSDP2 root of the model (a library built and sharded it) skips or resumes the
    gradient reduction; the FSDP1 context manager is entered by mistake."""
    fsdp_modules = [module for module in model.modules() if isinstance(module, FSDPModule)]
    for fsdp_module in fsdp_modules:
        fsdp_module.set_requires_gradient_sync(sync)
        fsdp_module.no_sync()


def set_backward_sync_loop(model, sync: bool):
    for module in model.modules():
        if isinstance(module, FSDPModule):
            module.set_requires_gradient_sync(sync)
            module.no_sync()
