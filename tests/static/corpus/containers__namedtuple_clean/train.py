import torch

from dist_utils import init_distributed
from models import build_models


def main(loader, name: str = "Qwen/Qwen2.5-0.5B"):
    mesh = init_distributed()
    models = build_models(name, mesh)
    models.reference.requires_grad_(False)
    models.reference.cuda().eval()
    with torch.no_grad():  # the starting point, in full precision
        first = next(iter(loader))
        print("initial policy loss", models.policy(first["input_ids"], labels=first["input_ids"]).loss.item())
    models.reference.to(torch.bfloat16)
    optimizer = torch.optim.AdamW(models.policy.parameters(), lr=1e-6)
    for batch in loader:
        with torch.no_grad():
            ref_logits = models.reference(batch["input_ids"]).logits
        logits = models.policy(batch["input_ids"]).logits
        kl = (logits.log_softmax(-1) - ref_logits.log_softmax(-1)).mean()
        kl.backward()
        optimizer.step()
        optimizer.zero_grad()
