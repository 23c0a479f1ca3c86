"""Wraps every model of the container for data parallelism: FSDP2 (the default) or FSDP1."""

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from containers import ModelContainer
from model import Block


def wrap_model_container(args, model_container: ModelContainer) -> ModelContainer:
    if args.fsdp_algorithm == 2:
        policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        for model in model_container:
            for module in model.modules():
                if isinstance(module, Block):
                    fully_shard(module, mp_policy=policy)
            fully_shard(model, mp_policy=policy)
    else:
        for i, model in enumerate(model_container):
            model_container[i] = FSDP(model, use_orig_params=True)
    return model_container
