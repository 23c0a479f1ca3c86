import argparse

import torch
import torch.distributed as dist

from build import build_ema, build_student


def train_step(model, optimizer, batch):
    loss = torch.nn.functional.mse_loss(model(batch), batch)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.detach()


@torch.no_grad()
def update_ema(ema, model, decay=0.999):
    for target, source in zip(ema.parameters(), model.parameters()):
        target.lerp_(source, 1 - decay)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pretrained", default="checkpoints/dit")
    parser.add_argument("--ema-from", default="checkpoints/dit-ema")
    args = parser.parse_args()
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    model = build_student(args.pretrained)
    ema = build_ema(args.ema_from)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(100):
        batch = torch.randn(8, 64, device="cuda")
        train_step(model, optimizer, batch)
        update_ema(ema, model)
        ema(batch)


if __name__ == "__main__":
    main()
