import torch
from torchdata.stateful_dataloader import StatefulDataLoader

from checkpointing import save
from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp
from state import TrainState


def main(dataset, folder: str):
    mesh = init_distributed()
    model = apply_fsdp(Transformer(32000, 2048, 24), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    state = TrainState(model, optimizer, StatefulDataLoader(dataset, batch_size=8))
    for tokens in state.dataloader:
        state.model(tokens).mean().backward()
        state.optimizer.step()
        state.optimizer.zero_grad()
        state.step += 1
        if state.step % 1000 == 0:
            save(state, f"{folder}/step-{state.step}")
