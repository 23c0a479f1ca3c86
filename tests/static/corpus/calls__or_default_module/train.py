import torch
import torch.distributed as dist

from models.config import DenseConfig, FSDPConfig
from models.dense import DenseModel


def main(steps: int = 1000):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    model = DenseModel(DenseConfig()).cuda()
    model = model.fully_shard(FSDPConfig())
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5, weight_decay=0.0)
    for _ in range(steps):
        tokens = torch.randint(0, 151936, (2, 4096), device="cuda")
        logits = model(tokens[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1).float(), tokens[:, 1:].flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
