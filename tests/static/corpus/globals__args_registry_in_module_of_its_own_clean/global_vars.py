"""The run's parsed arguments, set once by initialize() and read where they are needed
(Megatron-style global state)."""

_GLOBAL_ARGS = None


def set_args(args):
    global _GLOBAL_ARGS
    _GLOBAL_ARGS = args


def get_args():
    return _GLOBAL_ARGS


def fsdp2_enabled():
    return get_args().parallel.fsdp_version == "fsdp2"
