import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from configs import TextConfig, VLMConfig
from modeling import VisionLanguageModel
from parallelize import shard_vlm


def setup():
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    model = VisionLanguageModel(VLMConfig(), TextConfig())
    return shard_vlm(model, mesh)


def main():
    model = setup()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(10):
        pixels = torch.randn(2, 3, 56, 56, device="cuda")
        input_ids = torch.randint(0, model.config.vocab_size, (2, 16), device="cuda")
        model(pixels, input_ids).float().logsumexp(-1).mean().backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
