import torch

from fsdp_io import fsdp2_load_state_dict


def load_checkpoint(conf, model, path):
    checkpoint = torch.load(path, map_location="cpu")
    if conf["data"] == "fsdp2":
        fsdp2_load_state_dict(model, checkpoint["model"])
    else:
        model.load_state_dict(checkpoint["model"])
    return model
