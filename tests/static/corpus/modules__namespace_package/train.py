"""Run from the checkout: `torchrun --nproc-per-node 8 train.py` (models/ and parallelisms/ are
namespace packages: no __init__.py)."""
import torch
import torch.nn.functional as F

from dist_utils import init_distributed
from models.llama.model import LlamaForCausalLM
from parallelisms.fsdp import apply_fsdp


def main(loader, vocab_size: int = 128256):
    mesh = init_distributed()
    model = LlamaForCausalLM(vocab_size, dim=2048, n_layers=16)
    apply_fsdp(model, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for input_ids in loader:
        logits = model(input_ids[:, :-1])
        F.cross_entropy(logits.flatten(0, 1), input_ids[:, 1:].flatten()).backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main(loader=[])
