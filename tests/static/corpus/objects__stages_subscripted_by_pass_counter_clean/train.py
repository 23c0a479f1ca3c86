import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy

from pipeline.model import Stage
from pipeline.parallel import apply_fsdp


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    stages = [Stage(512, 4).cuda(), Stage(512, 4).cuda()]
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    stages = apply_fsdp(stages, mesh, policy)
    params = [p for stage in stages for p in stage.parameters()]
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    for _ in range(10):
        x = torch.randn(8, 512, device="cuda")
        loss = stages[1](stages[0](x)).square().mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
