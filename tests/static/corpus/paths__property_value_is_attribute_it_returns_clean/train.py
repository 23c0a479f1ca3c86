import torch

from checkpoint import load_checkpoint
from model import Transformer
from state import CheckpointConfig, State


def resume(model_state, optim_state, state_dict_type="sharded", monolith=False):
    """Resume a run: the model is sharded while its state is loaded (`State.load_model_state`),
    then the optimizer's state follows the configured state dict type."""
    model = Transformer(32000, 1024, 12)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    state = State(model, optimizer, CheckpointConfig(state_dict_type=state_dict_type, load_monolith_rank0_only=monolith))
    load_checkpoint(state, model_state, optim_state)
    return state
