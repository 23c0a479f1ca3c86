from model import Wrapper


def make_backend(architecture, dp):
    if architecture == "hf":
        return Wrapper.from_config(dp)
    raise ValueError(architecture)
