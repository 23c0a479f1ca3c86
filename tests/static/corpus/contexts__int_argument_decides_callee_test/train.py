import torch
import torch.distributed as dist

from model import Decoder
from parallel import apply_data_parallel


def sample(model, prompt):
    # a qualitative sample for the logs, from the first rank
    if dist.get_rank() == 0:
        with torch.no_grad():
            logits = model(prompt)  # expect: FSD206
        print(logits.argmax(-1))


def main(batches, prompt):
    dist.init_process_group("nccl")
    model = apply_data_parallel(Decoder().cuda(), 8, "fsdp")
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step, (tokens, labels) in enumerate(batches):
        loss = torch.nn.functional.cross_entropy(model(tokens).flatten(0, 1), labels.flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 1000 == 0:
            sample(model, prompt)
