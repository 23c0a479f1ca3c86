import torch

from blocks import Decoder, Probe
from parallel import build_tiny, shard_decoder, shard_probe


class Trainer:
    def __init__(self, kind):
        self.kind = kind
        self.model = self.setup()
        self.probe = shard_probe(Probe())
        self.optimizer = torch.optim.AdamW(list(self.model.parameters()) + list(self.probe.parameters()))

    def setup(self):
        if self.kind == "tiny":
            return build_tiny()
        return shard_decoder(Decoder())

    def step(self, ids):
        hidden = self.model(ids)
        loss = self.probe(hidden).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()


def main():
    trainer = Trainer("tiny")
    trainer.step(torch.randint(0, 16, (2, 8)))


if __name__ == "__main__":
    main()
