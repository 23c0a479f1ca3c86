import torch
from torch import nn
from torch.distributed.fsdp import FSDPModule, fully_shard

from model import FusionModel


def resize_token_embeddings(model, num_embeddings: int) -> None:
    """Grow the vocabulary of a sharded or plain model in place."""
    if isinstance(model, FusionModel):
        model = model.decoder
    is_fsdp = isinstance(model, FSDPModule)
    mesh = getattr(model.tok_embeddings.weight, "device_mesh", None)
    if is_fsdp:
        model.unshard()
    _resize_output(model, num_embeddings)
    if is_fsdp:
        fully_shard(model.tok_embeddings, mesh=mesh)  # expect: FSD102
        fully_shard(model.output, mesh=mesh)


@torch.no_grad()
def _resize_output(model, num_embeddings: int) -> None:
    old = model.output
    model.output = nn.Linear(old.in_features, num_embeddings, bias=False, device=old.weight.device, dtype=old.weight.dtype)
    rows = min(num_embeddings, old.out_features)
    model.output.weight[:rows] = old.weight.full_tensor()[:rows]
