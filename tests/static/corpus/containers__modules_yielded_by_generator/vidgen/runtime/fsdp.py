from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def _iter_shard_plan(plan):
    for entry in plan:
        if "module" in entry:
            yield entry["module"], entry["reshard_after_forward"]
        else:
            for module in entry["modules"]:
                yield module, entry["reshard_after_forward"]


def apply_fsdp2(model, param_dtype):
    policy = MixedPrecisionPolicy(param_dtype=param_dtype)
    for module, reshard in _iter_shard_plan(model.fsdp2_shard_plan()):
        fully_shard(module, mp_policy=policy, reshard_after_forward=reshard)
    return model
