import argparse

import torch

from dist_utils import init_distributed
from evaluation import report_initial_loss
from loading import load_pretrained
from parallel import apply_fsdp
from precision import use_fp32_master_weights


def main(val_loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--init-from", required=True)
    args = parser.parse_args()
    mesh = init_distributed()
    model = load_pretrained(args.init_from)
    use_fp32_master_weights(model)
    apply_fsdp(model, mesh)
    report_initial_loss(model, val_loader)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    return model, optimizer
