from state import State


def load_checkpoint(state: State, model_state, optim_state):
    if state.sharded_state_dict_enabled:
        load_sharded_checkpoint(state, model_state, optim_state)


def load_sharded_checkpoint(state: State, model_state, optim_state):
    state.load_model_state(model_state)
    state.load_optim_state(optim_state)
