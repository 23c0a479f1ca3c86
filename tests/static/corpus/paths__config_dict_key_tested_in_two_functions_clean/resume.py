import torch

from fsdp_io import fsdp2_load_model_states


def load_model_states(conf, model, optimizer):
    """Resumes from the trainer's checkpoint: through DCP's full state dict when sharded."""
    checkpoint = torch.load(conf["trainer"]["checkpoint"], map_location="cpu")
    if conf["trainer"]["parallelism"]["data"] == "fsdp2":
        fsdp2_load_model_states(model, checkpoint["model_state_dict"])
    else:
        model.load_state_dict(checkpoint["model_state_dict"])
        optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
    return checkpoint["epoch"]
