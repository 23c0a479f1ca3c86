import torch
from torch.distributed.fsdp import fully_shard

from net import Net
from step import backward, train_step


def main():
    model = Net()
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    batch = torch.ones(4, 8)
    for _ in range(3):
        train_step(model, optimizer, batch, 1.0)
    backward(model, model(batch), sync=False)


if __name__ == "__main__":
    main()
