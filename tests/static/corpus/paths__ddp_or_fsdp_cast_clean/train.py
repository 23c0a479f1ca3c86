import argparse

import torch

from dist_utils import init_distributed
from evaluation import report_initial_loss
from model import Transformer
from parallel import apply_ddp, apply_fsdp
from precision import finalize_precision


def main(val_loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-parallel", choices=["ddp", "fsdp"], default="fsdp")
    parser.add_argument("--fp32-head", action="store_true")
    args = parser.parse_args()
    mesh = init_distributed()
    device = torch.device("cuda", torch.cuda.current_device())
    model = Transformer(32000, 2048, 16)
    if args.data_parallel == "fsdp":
        apply_fsdp(model, mesh)
        finalize_precision(model, args.fp32_head)
        report_initial_loss(model, val_loader)
    else:
        model = apply_ddp(model, device, torch.bfloat16)
        report_initial_loss(model, val_loader)
        finalize_precision(model.module, args.fp32_head)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    return model, optimizer
