import copy

from model import Transformer
from parallel import apply_fsdp


def setup_models(cfg, mesh):
    """The trained model, sharded, and its EMA copy, kept whole on each rank for evaluation."""
    model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
    ema = copy.deepcopy(model).cuda().requires_grad_(False)
    apply_fsdp(model, mesh)
    return model, ema
