import argparse

from model import Transformer
from optim_factory import get_optimizer
from parallel import shard_model
from trainer import Trainer


def main(loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--optimizer", default="lion")
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()
    model = Transformer(256, 4)
    model = shard_model(model)
    optimizer = get_optimizer(args.optimizer, model, args.lr)
    Trainer(model, optimizer).fit(loader)
