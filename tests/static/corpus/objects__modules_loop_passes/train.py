import torch

from dist_utils import init_distributed
from fsdp import apply_fsdp
from model import CausalLM


def main():
    mesh = init_distributed()
    model = apply_fsdp(CausalLM(), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(100):
        tokens = torch.randint(0, 32000, (4, 512), device="cuda")
        logits = model(tokens[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1).float(), tokens[:, 1:].flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
