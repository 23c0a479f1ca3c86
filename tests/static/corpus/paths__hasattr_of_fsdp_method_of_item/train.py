import argparse

import torch
import torch.distributed as dist

from containers import ModelContainer
from distributed import wrap_model_container
from model import LanguageModel
from step import pipeline_step, train_step


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp-algorithm", type=int, default=2)
    parser.add_argument("--pipeline", action="store_true")
    args = parser.parse_args()
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    model_container = wrap_model_container(args, ModelContainer([LanguageModel()]))
    optimizer = torch.optim.AdamW(model_container[0].parameters(), lr=3e-4)
    for _ in range(1000):
        batches = [torch.randn(8, 256, device="cuda") for _ in range(4)]
        if args.pipeline:
            pipeline_step(model_container, None, optimizer, batches[0], 1.0)
        else:
            train_step(model_container, optimizer, batches, 1.0)


if __name__ == "__main__":
    main()
