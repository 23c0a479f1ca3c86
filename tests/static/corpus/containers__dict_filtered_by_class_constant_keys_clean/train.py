import torch
import torch.nn.functional as F

from checkpoint import DistributedCheckpointUtils
from model import build_model
from parallel import init_distributed, shard


def train(loader, output_dir: str, epochs: int, save_every: int = 1000):
    mesh = init_distributed()
    model = shard(build_model(dim=768, depth=12), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.05)
    step = 0
    for epoch in range(epochs):
        for images, labels in loader:
            loss = F.cross_entropy(model(images.cuda()), labels.cuda())
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            step += 1
            if step % save_every == 0:
                DistributedCheckpointUtils.save(
                    f"{output_dir}/step_{step}", model, optimizer, extra={"epoch": epoch, "step": step},
                )
