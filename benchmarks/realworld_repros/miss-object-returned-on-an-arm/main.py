import torch

from factory import make_backend


def main():
    backend = make_backend("hf", 2)
    out = backend.forward(torch.randn(2, 4))
    out.sum().backward()
    torch.save(backend.model.state_dict(), "backend.pt")


main()
