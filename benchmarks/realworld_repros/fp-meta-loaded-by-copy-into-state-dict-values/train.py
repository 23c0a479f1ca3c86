import torch

from model import build


def main():
    state_dict = torch.load("full.pt")
    model = build(state_dict, "cuda")
    out = model(torch.randn(2, 4))
    out.sum().backward()


main()
