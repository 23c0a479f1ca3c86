from typing import Callable, Optional, cast

import torch
from torch import nn
from torch.distributed.device_mesh import DeviceMesh
from torch.distributed.fsdp import FSDPModule, MixedPrecisionPolicy, fully_shard

FSDPWrapper = Callable[..., nn.Module]
FSDPApplier = Callable[[nn.Module, FSDPWrapper], nn.Module]


def to_fsdp2(
    module: nn.Module,
    mesh: DeviceMesh,
    applier: FSDPApplier,
    *,
    mixed_precision_dtype: Optional[torch.dtype] = None,
    reshard_after_forward: bool = True,
) -> FSDPModule:
    """Shard `module` with FSDP2: `applier` decides which submodules become units and calls
    `wrap` on each; the root becomes one if the applier did not make it one."""
    if mixed_precision_dtype is None:
        mp = MixedPrecisionPolicy()
    else:
        mp = MixedPrecisionPolicy(param_dtype=mixed_precision_dtype, reduce_dtype=torch.float32)
    default_reshard_after_forward = reshard_after_forward
    sharded_modules: set = set()

    def wrap(module: nn.Module, reshard_after_forward: Optional[bool] = None) -> FSDPModule:
        if reshard_after_forward is None:
            reshard_after_forward = default_reshard_after_forward
        fully_shard(module, mesh=mesh, reshard_after_forward=reshard_after_forward, mp_policy=mp)
        sharded_modules.add(module)
        return cast(FSDPModule, module)

    module = applier(module, wrap)
    if not isinstance(module, FSDPModule):
        module = wrap(module, reshard_after_forward=False)
    return cast(FSDPModule, module)
