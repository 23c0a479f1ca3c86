import torch
from torch.distributed.fsdp import CPUOffloadPolicy, MixedPrecisionPolicy, OffloadPolicy, fully_shard
from transformers import Gemma3ForConditionalGeneration


def _policies(param_dtype, cpu_offload):
    mp_policy = MixedPrecisionPolicy(param_dtype=param_dtype, reduce_dtype=torch.float32, output_dtype=torch.float32)
    offload_policy = CPUOffloadPolicy(pin_memory=False) if cpu_offload else OffloadPolicy()
    return mp_policy, offload_policy


def _parallelize_hybrid(model, dp_mesh, param_dtype, cpu_offload):
    """Mamba/attention hybrids: the mixer blocks are the units, then the root."""
    mp_policy, offload_policy = _policies(param_dtype, cpu_offload)
    for block in model.backbone.layers:
        fully_shard(block, mesh=dp_mesh, mp_policy=mp_policy, offload_policy=offload_policy)
    return fully_shard(model, mesh=dp_mesh, mp_policy=mp_policy, offload_policy=offload_policy)


def parallelize_model(model, dp_mesh, param_dtype=torch.bfloat16, cpu_offload=False):
    """Decoder layers become units, then the root (kept gathered after forward: backward
    needs it at once). Each model family keeps its layers somewhere else."""
    model_cls = type(model)
    if model_cls == Gemma3ForConditionalGeneration:
        layers = model.model.language_model.layers
    elif model_cls.__name__ == "NemotronHForCausalLM":
        # the hybrid's blocks are not decoder layers: shard them its own way
        model = _parallelize_hybrid(model, dp_mesh, param_dtype, cpu_offload)
        layers = model.backbone.layers
    else:
        layers = model.model.layers

    mp_policy, offload_policy = _policies(param_dtype, cpu_offload)
    for layer in layers:
        fully_shard(layer, mesh=dp_mesh, mp_policy=mp_policy, offload_policy=offload_policy)  # expect: FSD102
    return fully_shard(model, mesh=dp_mesh, mp_policy=mp_policy, offload_policy=offload_policy, reshard_after_forward=False)
