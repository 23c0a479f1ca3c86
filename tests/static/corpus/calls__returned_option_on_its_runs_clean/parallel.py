import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module
from transformers import AutoModel

from model import Adapter, Transformer, VLMWrapper


def apply_tensor_parallel(model, mesh):
    for block in model.layers:
        parallelize_module(block.mlp, mesh["tp"], {"0": ColwiseParallel(), "2": RowwiseParallel()})


def apply_fsdp2(model, mesh, mp_policy):
    for block in model.layers:
        fully_shard(block, mesh=mesh["dp_shard"], mp_policy=mp_policy)
    fully_shard(model, mesh=mesh["dp_shard"], mp_policy=mp_policy)


def _build_vlm(model_config, vision_config, device, mesh, mp_policy):
    """The encoder comes pretrained from the hub; the adapter and the language model are new."""
    encoder = AutoModel.from_pretrained(vision_config.path)
    adapter = Adapter(vision_config.feature_dim, model_config.dim)
    transformer = Transformer(model_config, num_image_tokens=vision_config.num_tokens)
    wrapper = VLMWrapper(encoder, adapter, transformer)
    if mesh is not None:
        apply_fsdp2(transformer, mesh, mp_policy)
        fully_shard(wrapper, mesh=mesh["dp_shard"], mp_policy=mp_policy)
    transformer.init_weights()
    wrapper.to(device)
    return wrapper


def build_parallel_model(model_config, device, mesh, *, vision_config=None, vlm_config=None):
    """A VLM wrapper, ready, when `vlm_config` is given; else the text Transformer, parallelised
    and sharded on the meta device: the caller materialises it (from a checkpoint or fresh)."""
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    if vlm_config is not None:
        return _build_vlm(model_config, vision_config, device, mesh, mp_policy)

    with torch.device("meta"):
        model = Transformer(model_config)
    if "tp" in mesh.mesh_dim_names:
        apply_tensor_parallel(model, mesh)
    apply_fsdp2(model, mesh, mp_policy)
    return model
