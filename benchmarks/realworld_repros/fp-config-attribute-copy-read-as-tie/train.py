import torch
from torch.distributed.fsdp import fully_shard

from model import Config, VisionLanguageModel


def shard(model):
    for layer in model.language_model.layers:
        fully_shard(layer)
    fully_shard(model.language_model)
    fully_shard(model)
    return model


def main():
    model = shard(VisionLanguageModel(Config(), Config(hidden_size=16)))
    optimizer = torch.optim.AdamW(model.parameters())
    model(torch.randint(0, 128, (2, 8))).sum().backward()
    optimizer.step()


if __name__ == "__main__":
    main()
