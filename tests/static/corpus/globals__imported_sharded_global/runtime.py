"""What every entry point of the service shares: the process group, the mesh and the sharded
model, set up once on import."""
import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from model import Transformer
from parallel import shard_model

torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
dist.init_process_group("nccl")
MESH = init_device_mesh("cuda", (dist.get_world_size(),))
MODEL = shard_model(Transformer(32000, 1024, 12), MESH)
