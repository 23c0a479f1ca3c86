import torch
import torch.nn.functional as F

from checkpoint import save_checkpoint
from dist_utils import init_distributed
from model import Transformer
from parallel import wrap_model


class Trainer:
    def __init__(self, args, loader):
        self.args = args
        self.loader = loader
        self.mesh = init_distributed()
        self.device = torch.device("cuda", torch.cuda.current_device())
        self.model = Transformer(32000, 2048, 16)

    def fit(self):
        self._setup()
        for step, batch in zip(range(1, self.args.steps + 1), self.loader):
            self._train_step(batch)
            if step % self.args.save_every == 0:
                self._save(step)

    def _setup(self):
        self.model = wrap_model(self.model, self.args.strategy, self.mesh, self.device)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=3e-4)

    def _train_step(self, batch):
        tokens = batch["input_ids"].to(self.device)
        logits = self.model(tokens[:, :-1])
        loss = F.cross_entropy(logits.flatten(0, 1).float(), tokens[:, 1:].flatten())
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()

    def _save(self, step):
        save_checkpoint(self.model, self.args.out, step)
