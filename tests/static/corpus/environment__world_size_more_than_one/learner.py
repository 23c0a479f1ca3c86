import os

import torch
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.fsdp import fully_shard


class PolicyLearner:
    """One learner per worker process; with a single worker (a debug run) nothing is sharded and
    the checkpoint is a plain file."""

    def __init__(self, vocab: int, dim: int, world_size: int, rank: int):
        self.world_size = world_size
        self.rank = rank
        model = nn.Sequential(nn.Embedding(vocab, dim), *[nn.TransformerEncoderLayer(dim, 8, batch_first=True) for _ in range(6)], nn.Linear(dim, vocab))
        if world_size > 1:
            for layer in list(model)[1:-1]:
                fully_shard(layer)
            fully_shard(model)
        self.model = model
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-5)

    def train_step(self, tokens, advantages):
        logits = self.model(tokens)
        logp = torch.log_softmax(logits.float(), -1).gather(-1, tokens[..., None]).squeeze(-1)
        loss = -(logp * advantages).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()

    def save_checkpoint(self, directory: str):
        if self.world_size > 1:
            dcp.save({"model": self.model.state_dict()}, checkpoint_id=directory)
        else:
            torch.save(self.model.state_dict(), os.path.join(directory, "model.pt"))
