from checkpoint import load_checkpoint
from state import Checkpoint2Config, CheckpointConfig, Parallelism, State


def resume(model, optimizer, model_state, optim_state, state_dict_type="sharded", monolith=False):
    state = State(model, optimizer, None, Parallelism(fsdp2=Checkpoint2Config(state_dict_type=state_dict_type, load_monolith_rank0_only=monolith)) if monolith else Parallelism(fsdp=CheckpointConfig(state_dict_type=state_dict_type)))
    load_checkpoint(state, model_state, optim_state)
    return state
