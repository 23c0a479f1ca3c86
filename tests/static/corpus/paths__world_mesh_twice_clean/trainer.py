import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_model_state_dict

from config import JobConfig
from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp


class Trainer:
    def __init__(self, cfg: JobConfig):
        self.cfg = cfg
        self.world_mesh = init_distributed() if cfg.dp_shard > 1 else None
        self.model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
        if self.world_mesh is not None:
            apply_fsdp(self.model, self.world_mesh)
        else:
            self.model.cuda()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr)

    def train_step(self, tokens, labels):
        logits = self.model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.detach()

    def save(self, path: str):
        if self.world_mesh is None:
            torch.save(self.model.state_dict(), path + ".pt")
        else:
            dcp.save({"model": get_model_state_dict(self.model)}, checkpoint_id=path)
