import torch

from dist_utils import init_distributed
from model import Policy
from strategy import FSDPStrategy


def main():
    mesh = init_distributed()
    strategy = FSDPStrategy(mesh)
    policy = Policy(vocab_size=32000, dim=1024, n_layers=16)
    policy = strategy.prepare_model(policy)  # early: the host copy is freed before rollouts
    policy, optimizer = strategy.prepare_models_and_optimizers(policy)
    for _ in range(100):
        tokens = torch.randint(0, 32000, (4, 256), device="cuda")
        loss = policy(tokens).float().logsumexp(-1).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
