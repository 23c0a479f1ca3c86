from checkpointing import load_base_checkpoint


def load_args(path):
    return load_base_checkpoint(path, rank0=True)


def resume(path, sharded):
    return load_base_checkpoint(path, sharded_state_dict=sharded)
