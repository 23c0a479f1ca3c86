import os

import torch


def _model_path(directory):
    return os.path.join(directory, "model")


def save_checkpoint(model, directory):
    # one process (Apple MPS, gloo): the sharded model's state dict, DTensors, pickled as they are
    torch.save({"state": model.state_dict()}, f"{_model_path(directory)}.pt")


def load_checkpoint(model, directory):
    # the file save_checkpoint wrote: DTensors in the model's own layout, not full plain tensors
    model.load_state_dict(torch.load(f"{_model_path(directory)}.pt")["state"])
