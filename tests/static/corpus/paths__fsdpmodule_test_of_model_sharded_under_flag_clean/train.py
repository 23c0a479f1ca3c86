import torch

from checkpoint import save_training_state
from config import TrainConfig
from distributed import init_distributed, prepare_model_for_distributed
from models import DynamicsModel


def main(config: TrainConfig):
    mesh = init_distributed()
    model = DynamicsModel().cuda()
    if config.compile:
        model = torch.compile(model)
    model = prepare_model_for_distributed(model, config.distributed, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(config.steps):
        tokens = torch.randint(0, 512, (8, 64), device="cuda")
        loss = model(tokens).float().logsumexp(-1).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if (step + 1) % config.save_every == 0:
            save_training_state(model, optimizer, config.checkpoint_dir, step + 1)


if __name__ == "__main__":
    main(TrainConfig())
