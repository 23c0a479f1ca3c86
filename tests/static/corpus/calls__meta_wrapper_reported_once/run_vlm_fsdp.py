import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.device_mesh import init_device_mesh

from build import build_model


def main(cfg, loader):
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    model = build_model(cfg, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for image_features, text_embeds, labels in loader:
        logits = model(image_features, text_embeds)
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
