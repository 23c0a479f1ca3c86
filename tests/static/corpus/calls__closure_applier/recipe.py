import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from models.appliers import apply_layerwise_fsdp
from models.transformer import TransformerLM
from nn.fsdp import to_fsdp2


def train(steps: int = 1000):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    model = TransformerLM().cuda()
    model = to_fsdp2(model, mesh, apply_layerwise_fsdp, mixed_precision_dtype=torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(steps):
        tokens = torch.randint(0, 32000, (8, 1024), device="cuda")
        logits = model(tokens[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1).float(), tokens[:, 1:].flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    train()
