import torch

from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp
from steps import reference_logprobs, train_step


def main(loader):
    mesh = init_distributed()
    model = Transformer(32000, 1024, 12)
    apply_fsdp(model, mesh)
    ref_model = Transformer(32000, 1024, 12).cuda().eval()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for batch in loader:
        batch["ref_logprobs"] = reference_logprobs(ref_model, batch)
        loss = train_step(model, optimizer, batch)
        print(f"loss {loss.item():.4f}")
