"""Runs on each of 2 ranks (`tests/runtime/test_tie_after_shard.py`): an embedding tied to the
output layer after `fully_shard` (`model.output.weight = model.tok_embeddings.weight`, as AReaL's
archon models do once their helper built the units), trained two steps next to an unsharded
model tied before, for each way of grouping the two into units and each kind of sharding."""

import copy
from typing import Dict

import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

DIM = 8


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(DIM, DIM)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.linear(x)


class LM(nn.Module):
    def __init__(self, vocab: int) -> None:
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab, DIM)
        self.layers = nn.ModuleDict({"0": Block(), "1": Block()})
        self.norm = nn.LayerNorm(DIM)
        self.output = nn.Linear(DIM, vocab, bias=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h = self.tok_embeddings(tokens)
        for layer in self.layers.values():
            h = layer(h)
        return self.output(self.norm(h))


def tie_after_shard(rank: int, _payload: object) -> Dict[str, Dict[str, bool]]:
    """Per layout (`split`: the embedding its own unit and the output one with the norm, as
    AReaL's; `grouped`: both in one unit; `root`: both left to the root) and per vocabulary (16
    rows shard evenly over 2 ranks, 17 do not): whether the output's forward used the embedding's
    values and whether training matched the tied reference."""
    return {
        f"{layout}/{vocab}": _train(layout, vocab)
        for layout in ("split", "grouped", "root") for vocab in (16, 17)
    }


def _train(layout: str, vocab: int) -> Dict[str, bool]:
    torch.manual_seed(0)
    model = LM(vocab)
    reference = copy.deepcopy(model)
    reference.output.weight = reference.tok_embeddings.weight
    if layout == "split":
        fully_shard(model.tok_embeddings)
    for block in model.layers.values():
        fully_shard(block)
    if layout == "split":
        fully_shard([model.norm, model.output])
    elif layout == "grouped":
        fully_shard([model.tok_embeddings, model.norm, model.output])
    fully_shard(model)
    model.output.weight = model.tok_embeddings.weight  # the tie, after the units
    seen: Dict[str, torch.Tensor] = {}
    model.output.register_forward_pre_hook(lambda module, args: seen.__setitem__("output", module.weight.detach().clone()))
    model.tok_embeddings.register_forward_pre_hook(lambda module, args: seen.__setitem__("embedding", module.weight.detach().clone()))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    reference_optimizer = torch.optim.SGD(reference.parameters(), lr=0.5)
    tokens = torch.randint(0, vocab, (2, 5))
    same_forward = True
    for _ in range(2):
        for net, opt in ((model, optimizer), (reference, reference_optimizer)):
            net(tokens).pow(2).mean().backward()
            opt.step()
            opt.zero_grad()
        same_forward = same_forward and torch.equal(seen["output"], seen["embedding"])
    trained = model.tok_embeddings.weight.full_tensor()
    return {"forward_uses_embedding": same_forward, "matches_tied_reference": torch.allclose(trained, reference.tok_embeddings.weight, atol=1e-5)}
