import torch
import torch.distributed as dist

from build import build_probe
from steps import check_in_double, to_double, train_step


def main(steps: int = 4):
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = to_double(build_probe(8))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(4, 8).double(), torch.randn(4).double()
    for _ in range(steps):
        train_step(model, optimizer, x, y)
    print(check_in_double(model, x, y))


if __name__ == "__main__":
    main()
