import torch
from torch.distributed.fsdp import FSDPModule


@torch.no_grad()
def evaluate(model: torch.nn.Module, batches) -> float:
    total = 0.0
    for batch in batches:
        if not isinstance(model, FSDPModule):
            logits = model.forward(batch["input_ids"])
        else:
            logits = model(batch["input_ids"])
        total += torch.nn.functional.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten()).item()
    return total
