_ARGS = None


def set_args(args):
    global _ARGS
    _ARGS = args


def get_args():
    return _ARGS


def fsdp2_enabled():
    return get_args().fsdp_version == "fsdp2"
