import argparse
import torch.multiprocessing as mp
from worker import run_test


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--distributed", action="store_true")
    args = parser.parse_args()
    if args.distributed:
        mp.spawn(run_test, args=(2, True), nprocs=2, join=True)
    else:
        run_test(0, 1, False)


if __name__ == "__main__":
    main()
