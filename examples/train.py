import torch
from torch.distributed.fsdp import fully_shard


def main(model, loader):
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    for batch in loader:
        loss = model.forward(batch).sum()
        loss.backward()
        optimizer.step()
    torch.save(model.state_dict(), "ckpt.pt")
