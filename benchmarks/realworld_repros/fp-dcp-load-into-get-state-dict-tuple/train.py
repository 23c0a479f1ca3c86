import torch
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_state_dict
from torch.distributed.fsdp import fully_shard


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))

    def forward(self, x):
        return self.layers(x)


def train(seed_path):
    with torch.device("meta"):
        model = Net()
    fully_shard(model)
    model.to_empty(device="cuda")
    model_sd, _ = get_state_dict(model, [], options=StateDictOptions(strict=False))
    dcp.load(model_sd, checkpoint_id=seed_path)
    optimizer = torch.optim.Adam(model.parameters())
    model(torch.randn(4, 8)).sum().backward()
    optimizer.step()
