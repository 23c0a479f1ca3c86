import torch
from torch import nn
from torch.distributed.fsdp import FSDPModule, fully_shard

from model import FusionModel


def resize_token_embeddings(model, num_embeddings: int) -> None:
    """Grow the vocabulary of a sharded or plain model: new embedding and output modules, each
    its own unit when the model is sharded."""
    if isinstance(model, FusionModel):
        model = model.decoder
    is_fsdp = isinstance(model, FSDPModule)
    mesh = getattr(model.tok_embeddings.weight, "device_mesh", None)
    if is_fsdp:
        model.unshard()
    _resize(model, num_embeddings)
    if is_fsdp:
        fully_shard(model.tok_embeddings, mesh=mesh)
        fully_shard(model.output, mesh=mesh)


@torch.no_grad()
def _resize(model, num_embeddings: int) -> None:
    old_embeddings = model.tok_embeddings
    model.tok_embeddings = nn.Embedding(
        num_embeddings, old_embeddings.embedding_dim, device=old_embeddings.weight.device, dtype=old_embeddings.weight.dtype
    )
    rows = min(num_embeddings, old_embeddings.num_embeddings)
    model.tok_embeddings.weight[:rows] = old_embeddings.weight.full_tensor()[:rows]
    old = model.output
    model.output = nn.Linear(old.in_features, num_embeddings, bias=False, device=old.weight.device, dtype=old.weight.dtype)
    model.output.weight[:rows] = old.weight.full_tensor()[:rows]
