import os

import torch

MODEL_STATE = "model"
OPTIMIZER_STATE = "optimizer"
EXTRA_STATE_FILE = "trainer_state.pt"


def save_extra_state(state: dict, directory: str) -> None:
    """What DCP does not save: the trainer's counters, in a file of their own."""
    torch.save(state, os.path.join(directory, EXTRA_STATE_FILE))  # expect: FSD301


def load_extra_state(directory: str) -> dict:
    return torch.load(os.path.join(directory, EXTRA_STATE_FILE), map_location="cpu", weights_only=False)
