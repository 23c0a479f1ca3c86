import torch.nn.functional as F

from checkpoint import save_checkpoint
from dist_utils import init_distributed
from modeling import WorldModel
from optimizer_utils import create_optimizers
from parallel import shard_model


class DynamicsTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.step = 0

    def setup(self):
        mesh = init_distributed()
        self.model = shard_model(WorldModel(self.cfg.num_codes, self.cfg.dim, self.cfg.depth), mesh)
        self.optimizers = create_optimizers(self.model, self.cfg.lr, self.cfg.separate_head)

    def train(self, loader):
        for codes in loader:
            logits = self.model(codes[:, :-1])
            F.cross_entropy(logits.flatten(0, 1), codes[:, 1:].flatten()).backward()
            for optimizer in self.optimizers:
                optimizer.step()
                optimizer.zero_grad()
            self.step += 1
            if self.step % self.cfg.save_every == 0:
                save_checkpoint(self.model, self.optimizers, self.step, self.cfg.out_dir)


def main(cfg, loader):
    trainer = DynamicsTrainer(cfg)
    trainer.setup()
    trainer.train(loader)
