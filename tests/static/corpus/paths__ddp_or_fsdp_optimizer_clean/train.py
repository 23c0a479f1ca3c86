from torch.nn.parallel import DistributedDataParallel

from config import TrainConfig
from dist_utils import init_distributed
from model import Transformer
from optim import build_optimizer
from parallel import apply_fsdp


def build(cfg: TrainConfig):
    mesh = init_distributed()
    model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
    if cfg.strategy == "ddp":
        ddp_model = DistributedDataParallel(model.cuda())
        optimizer = build_optimizer(ddp_model, cfg)
        return ddp_model, optimizer
    else:
        apply_fsdp(model, mesh)
        optimizer = build_optimizer(model, cfg)
    return model, optimizer
