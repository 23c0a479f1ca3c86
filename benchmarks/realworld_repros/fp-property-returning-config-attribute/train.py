from checkpoint import load_checkpoint
from state import CheckpointConfig, State


def resume(model, optimizer, model_state, optim_state, state_dict_type="sharded", monolith=False):
    state = State(model, optimizer, CheckpointConfig(state_dict_type=state_dict_type, load_monolith_rank0_only=monolith))
    load_checkpoint(state, model_state, optim_state)
    return state
