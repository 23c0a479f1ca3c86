import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard
from torch.nn.parallel import DistributedDataParallel

from checkpointing import load_model, save_model
from model import Net


def train(cfg, domain_mesh, data_mesh):
    model = Net(cfg.width, cfg.depth)
    if domain_mesh is None:
        model = DistributedDataParallel(model)
    else:
        for block in model.blocks:
            fully_shard(block, mesh=data_mesh)
        fully_shard(model, mesh=data_mesh)
    if cfg.resume:
        load_model(cfg.resume, model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        for x, y in cfg.loader:
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        if domain_mesh is not None or dist.get_rank() == 0:
            save_model(f"{cfg.out}/model_{epoch}.pt", model)
