import torch

from dist_utils import init_distributed
from model import Actor
from strategy import FSDPStrategy


def main():
    mesh = init_distributed()
    strategy = FSDPStrategy(mesh)
    actor = Actor(vocab_size=32000, dim=1024, n_layers=16)
    setattr(actor, "is_actor", True)
    actor = strategy.prepare_model(actor)  # early, to free host memory
    actor, optimizer = strategy.prepare_models_and_optimizers(actor)
    for _ in range(100):
        tokens = torch.randint(0, 32000, (4, 256), device="cuda")
        loss = -actor(tokens).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
