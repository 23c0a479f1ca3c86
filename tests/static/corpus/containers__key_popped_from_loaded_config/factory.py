from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from model import Denoiser, LatentFlow, TextEncoder


def create_component(module, fsdp_spec):
    """Shard a component per block and at its root when its config section asks for it."""
    if fsdp_spec is None:
        return module
    policy = MixedPrecisionPolicy(param_dtype=fsdp_spec.get("param_dtype"))
    for block in getattr(module, "blocks", []):
        fully_shard(block, mp_policy=policy)
    fully_shard(module, mp_policy=policy)
    return module


def create_latent_flow(config):
    """The student as the training run built it, each component sharded as its section says."""
    denoiser_config = config["denoiser"]
    denoiser = create_component(
        Denoiser(denoiser_config["dim"], denoiser_config["depth"]), denoiser_config.get("fsdp", None)
    )
    text_config = config["text_encoder"]
    text_encoder = create_component(TextEncoder(text_config["vocab"], text_config["dim"]), text_config.get("fsdp"))
    return LatentFlow(denoiser, text_encoder)
