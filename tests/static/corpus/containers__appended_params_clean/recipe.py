"""Full fine-tuning recipe, launched by the team's CLI (`launch recipe.yaml`), which builds a
`FullFinetuneRecipe` from the config and calls `setup()` and then `train()`."""
import torch.nn.functional as F

from dist_utils import init_distributed
from modeling import CausalLM
from optim import build_optimizer
from parallel import apply_fsdp


class FullFinetuneRecipe:
    def __init__(self, cfg):
        self.cfg = cfg
        self.global_step = 0

    def setup(self):
        cfg = self.cfg
        mesh = init_distributed()
        model = CausalLM(cfg.vocab_size, cfg.dim, cfg.n_layers)
        apply_fsdp(model, mesh)
        self._optimizer = build_optimizer(model, cfg.lr, weight_decay=cfg.weight_decay)
        self._model = model

    def train(self, loader):
        for input_ids in loader:
            logits = self._model(input_ids[:, :-1])
            loss = F.cross_entropy(logits.flatten(0, 1), input_ids[:, 1:].flatten())
            loss.backward()
            self._optimizer.step()
            self._optimizer.zero_grad()
            self.global_step += 1
