import torch

from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp


class Trainer:
    def __init__(self, vocab_size: int, dim: int, n_layers: int):
        self.mesh = init_distributed()
        self.model = Transformer(vocab_size, dim, n_layers).cuda()

    def shard(self):
        apply_fsdp(self.model, self.mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=3e-4)

    def check_output_shape(self):
        with torch.no_grad():
            probe = torch.zeros(1, 16, dtype=torch.long, device="cuda")
            logits = self.model.forward(probe)  # expect: FSD201
        assert logits.shape[-1] == self.model.output.out_features

    def fit(self, loader):
        self.shard()
        self.check_output_shape()
        for tokens in loader:
            self.model(tokens).mean().backward()
            self.optimizer.step()
            self.optimizer.zero_grad()


def main(loader):
    Trainer(32000, 1024, 12).fit(loader)
