from torch.distributed.fsdp import fully_shard


def apply_fsdp2(model):
    denoiser = model.denoiser()
    for block in denoiser:
        fully_shard(block)
    fully_shard(denoiser)
    return model
