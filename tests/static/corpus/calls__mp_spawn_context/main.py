import argparse
import functools

import torch.multiprocessing as mp
from torch.multiprocessing import start_processes
from worker import run_scaled, run_test


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--distributed", action="store_true")
    parser.add_argument("--scaled", action="store_true")
    args = parser.parse_args()
    if args.scaled:
        worker = functools.partial(run_scaled, lr=1e-3)
        if args.distributed:
            start_processes(worker, args=(2, True), nprocs=2, join=True)
        else:
            worker(0, 1)
    elif args.distributed:
        mp.spawn(run_test, args=(2, True), nprocs=2, join=True)
    else:
        run_test(0, 1, False)


if __name__ == "__main__":
    main()
