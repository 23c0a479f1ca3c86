from contextlib import contextmanager

from torch.distributed.fsdp import FSDPModule, MixedPrecisionPolicy, fully_shard
from torch.distributed.fsdp._fully_shard._fsdp_param import FSDPParam


def _unit_of(module, root):
    """The sharded module whose parameter group holds `module`'s parameters."""
    for candidate in root.modules():
        if isinstance(candidate, FSDPModule) and any(m is module for m in candidate.modules()):
            found = candidate
    return found


@contextmanager
def weight_update(root, modules):
    """Unshard the unit holding `modules` (one unit's), let the block replace their parameters,
    then hand the new parameters to FSDP: one `FSDPParam` each, in place of the old ones."""
    unit = _unit_of(modules[0], root)
    group = fully_shard.state(unit)._fsdp_param_group
    unit.unshard()
    by_name = {p._param_fqn: p for p in group.fsdp_params}
    try:
        yield
    finally:
        for module in modules:
            for name, param in module.named_parameters():
                old = by_name[name]
                policy = MixedPrecisionPolicy(param_dtype=param.dtype, reduce_dtype=None, output_dtype=None, cast_forward_inputs=False)
                new = FSDPParam(param, old._module_info, old.mesh_info, old.post_forward_mesh_info, old.device, None, policy, None)
                new.init_dtype_attrs(policy)
                by_name[name] = new
                old._post_load_hook_handle.remove()
        group.fsdp_params = list(by_name.values())
        unit.reshard()
