import torch

from config import FSDPOptions, ParallelConfig
from dist_utils import init_distributed
from model import Transformer
from strategy import ParallelState


def export_full_weights(model, path):
    """Gather the full parameters on rank 0 and save them."""
    with model.summon_full_params(model, writeback=False, rank0_only=True):
        torch.save({name: param.detach().cpu() for name, param in model.named_parameters()}, path)


def main(loader, out: str):
    mesh = init_distributed()
    state = ParallelState(ParallelConfig(fsdp=FSDPOptions(sync_module_states=True)))
    model = state.parallelize(Transformer(32000, 1024, 12), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for tokens, labels in loader:
        torch.nn.functional.cross_entropy(model(tokens).flatten(0, 1), labels.flatten()).backward()
        optimizer.step()
        optimizer.zero_grad()
    export_full_weights(model, out)
