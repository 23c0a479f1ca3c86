import torch

from model import GPT
from parallelize import parallelize


def main() -> None:
    model = GPT()
    optimizer = model.configure_optimizers(0.1, 6e-4)
    parallelize(model)
    for _ in range(3):
        loss = model(torch.randint(0, 16, (2, 4))).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)


if __name__ == "__main__":
    main()
