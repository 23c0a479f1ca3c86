import torch
import transformers
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def load_teacher(path):
    """A frozen teacher for distillation, sharded like the student."""
    teacher = transformers.AutoModelForCausalLM.from_pretrained(path, torch_dtype=torch.bfloat16)
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for layer in teacher.model.layers:
        fully_shard(layer, mp_policy=policy)
    fully_shard(teacher, mp_policy=policy)
    teacher.requires_grad_(False)
    return teacher
