import functools

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy

from model import Block
from parallel import apply_fsdp


def wrap_model(model, cfg, mesh):
    if cfg.fsdp_version == 1:
        policy = functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={Block})
        return FSDP(model, auto_wrap_policy=policy, device_id=torch.cuda.current_device())
    apply_fsdp(model, mesh)
    return model


def clip_gradients(model, cfg):
    if cfg.fsdp_version == 1:
        return model.clip_grad_norm_(cfg.max_grad_norm)
    return torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
