import torch

from net import CausalLM
from parallel import apply_fsdp2


def main():
    model = apply_fsdp2(CausalLM())
    torch.save(model.state_dict(), "model.pt")


main()
