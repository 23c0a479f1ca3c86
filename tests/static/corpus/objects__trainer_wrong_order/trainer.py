import torch
import torch.nn.functional as F
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from config import TrainConfig
from dist_utils import init_distributed
from model import Transformer


class Trainer:
    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.mesh = init_distributed()
        self.model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
        self.optimizer = None

    def setup_fsdp(self):
        mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        for block in self.model.layers:
            fully_shard(block, mesh=self.mesh, mp_policy=mp_policy)
        fully_shard(self.model, mesh=self.mesh, mp_policy=mp_policy)

    def build_optimizer(self):
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.cfg.lr, weight_decay=self.cfg.weight_decay)

    def train_step(self, tokens, labels):
        logits = self.model(tokens)
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.detach()

    def fit(self, loader):
        self.build_optimizer()  # expect: FSD202
        self.setup_fsdp()
        for step, (tokens, labels) in enumerate(loader):
            if step == self.cfg.max_steps:
                break
            self.train_step(tokens, labels)
