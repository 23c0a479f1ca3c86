import torch

from sample import generate, generate_direct
from wrap import wrap_fsdp2


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(8, 4)
        self.proj = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.proj(x)


def main():
    model = wrap_fsdp2(Net())
    generate(model, 3)
    generate_direct(model, 3)


if __name__ == "__main__":
    main()
