import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from checkpoint import CheckpointManager
from model import GPT


def evaluate(folder: str, step: int, batches):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    with torch.device("meta"):
        model = GPT(50304, 768, 12)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    model.to_empty(device="cuda")
    CheckpointManager(model, folder).load(step)
    model.eval()
    losses = []
    with torch.no_grad():
        for tokens, targets in batches:
            logits = model(tokens)  # expect: FSD105
            losses.append(torch.nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten()))
    return torch.stack(losses).mean()
