import os
import sys

import torch
import torch.distributed as dist
import torch.nn.functional as F
from omegaconf import OmegaConf
from torch.distributed.device_mesh import init_device_mesh

from parallel import build_parallel_model


def main(loader):
    config = OmegaConf.to_object(OmegaConf.load(sys.argv[1]))
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    world = dist.get_world_size()
    tp = config.distributed.tp
    mesh = init_device_mesh("cuda", (world // tp, tp), mesh_dim_names=("dp_shard", "tp"))
    device = torch.device("cuda", local_rank)

    vlm_cfg = config.vlm
    is_vlm = vlm_cfg is not None
    model = build_parallel_model(config.model, device, mesh, vision_config=config.vision, vlm_config=vlm_cfg)
    if vlm_cfg is None:
        model.to_empty(device=device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.train.lr)

    for step, batch in enumerate(loader):
        if step == config.train.max_steps:
            break
        input_ids = batch["input_ids"].to(device)
        labels = batch["labels"].to(device)
        if is_vlm:
            logits = model(batch["pixel_values"].to(device), input_ids)
            logits = logits[:, -labels.shape[1]:]
        else:
            logits = model(input_ids)  # expect: FSD105
        loss = F.cross_entropy(logits.flatten(0, 1).float(), labels.flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
