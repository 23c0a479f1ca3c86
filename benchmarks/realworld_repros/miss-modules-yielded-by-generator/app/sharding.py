from torch.distributed.fsdp import fully_shard


def _iter_plan(plan):
    for entry in plan:
        if "module" in entry:
            yield entry["module"], entry["reshard_after_forward"]
        else:
            for module in entry["modules"]:
                yield module, entry["reshard_after_forward"]


def apply_fsdp2(model):
    for module, reshard in _iter_plan(model.shard_plan()):
        fully_shard(module, reshard_after_forward=reshard)
    return model
