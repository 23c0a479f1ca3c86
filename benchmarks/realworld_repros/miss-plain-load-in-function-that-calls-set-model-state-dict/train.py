import sys

import torch
import torch.nn as nn
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict
from torch.distributed.fsdp import fully_shard


def load_checkpoint(model, path, use_dcp_api: bool):
    checkpoint = torch.load(path, map_location="cpu")
    if use_dcp_api:
        set_model_state_dict(model, checkpoint["model"], options=StateDictOptions(full_state_dict=True))
    else:
        model.load_state_dict(checkpoint["model"])
    return model


def main(path: str, use_dcp_api: bool) -> None:
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))
    for layer in model:
        if isinstance(layer, nn.Linear):
            fully_shard(layer)
    fully_shard(model)
    load_checkpoint(model, path, use_dcp_api)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] == "dcp")
