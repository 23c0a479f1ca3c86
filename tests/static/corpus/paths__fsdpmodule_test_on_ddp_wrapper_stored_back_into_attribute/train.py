import argparse

from trainer import Trainer


def main(loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--strategy", choices=["ddp", "fsdp"], default="fsdp")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--save-every", type=int, default=200)
    parser.add_argument("--out", default="checkpoints")
    Trainer(parser.parse_args(), loader).fit()
