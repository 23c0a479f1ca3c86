import torch
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy

from model import ContrastiveModel
from parallel import shard_towers


def build_model_and_tokenizer(cfg, world_size: int):
    model = ContrastiveModel(cfg)
    model.cuda()
    mesh = init_device_mesh("cuda", (world_size,), mesh_dim_names=("dp",))
    shard_towers(model, mesh["dp"], MixedPrecisionPolicy(param_dtype=torch.bfloat16))
    tokenizer = cfg.tokenizer_cls.from_file(cfg.vocab_path)
    return model, tokenizer
