import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy

from model import CausalLM, ModelConfig
from parallelizer import apply_fsdp


def main():
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    config = ModelConfig(tie_word_embeddings=os.environ.get("TIE", "1") == "1")
    model = apply_fsdp(CausalLM(config), mesh, MixedPrecisionPolicy(param_dtype=torch.bfloat16))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(100):
        tokens = torch.randint(0, config.vocab_size, (8, 512), device="cuda")
        model(tokens).mean().backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
