MODEL_STATE = "model"
OPTIMIZER_STATE = "optimizer"
EXTRA_STATE_FILE = "trainer_state.pt"
