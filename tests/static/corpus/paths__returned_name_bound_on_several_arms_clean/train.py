import torch

from checkpoint import load_checkpoint
from model import Transformer
from state import Checkpoint2Config, CheckpointConfig, Parallelism, State


def resume(model_state, optim_state, state_dict_type="sharded", fsdp2=False, legacy=False):
    """Resume a run under FSDP1's or FSDP2's checkpoint settings: the model is sharded while its
    state is loaded (`State.load_model_state`), then the optimizer's state follows."""
    model = Transformer(32000, 1024, 12)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    if fsdp2:
        parallelism = Parallelism(fsdp2=Checkpoint2Config(state_dict_type=state_dict_type, legacy_format=legacy))
    else:
        parallelism = Parallelism(fsdp=CheckpointConfig(state_dict_type=state_dict_type, legacy_format=legacy))
    state = State(model, optimizer, parallelism)
    load_checkpoint(state, model_state, optim_state)
    return state
