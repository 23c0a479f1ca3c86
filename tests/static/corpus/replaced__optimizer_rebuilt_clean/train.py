# torch 2.13, CPU, one gloo rank, real fully_shard: after param_groups.clear() and add_param_group
# over the sharded parameters, step() updates every parameter; when the root is sharded after that
# rebuild, the embeddings, final norm and head keep their pre-shard tensors in the optimizer and
# step() leaves them unchanged.

import torch

from dist_utils import init_distributed
from model import Transformer
from parallel import parallelize


def main(loader, lr: float = 3e-4):
    mesh = init_distributed()
    model = Transformer(32000, 1024, 12)
    decay = [p for n, p in model.named_parameters() if p.ndim >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.ndim < 2]
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=lr,
    )
    model = parallelize(model, optimizer, mesh)
    for tokens, labels in loader:
        loss = torch.nn.functional.cross_entropy(model(tokens).flatten(0, 1), labels.flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main(loader=None)
