import torch
import torch.distributed as dist

import zoo.models.wan_t2v  # noqa: F401  (registers the model)
from zoo.registry import build_model
from zoo.runtime.fsdp import apply_fsdp2


def main(config, loader):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    model = build_model(config)
    apply_fsdp2(model, torch.bfloat16)
    optimizer = torch.optim.AdamW(model.denoiser_module().parameters(), lr=config["lr"])
    for latents, target in loader:
        loss = torch.nn.functional.mse_loss(model.denoise(latents.cuda()), target.cuda())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
