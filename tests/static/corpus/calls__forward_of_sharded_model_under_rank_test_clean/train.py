import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from model import TinyLM
from sample import generate_example


def fit(model, optimizer, batches, eval_every: int = 100):
    for step, tokens in enumerate(batches):
        logits = model(tokens[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % eval_every == 0:
            generate_example(model, tokens[:1, :8], dist.get_rank())


def main():
    dist.init_process_group("gloo")
    model = TinyLM()
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    fit(model, optimizer, [torch.randint(0, 512, (4, 65)) for _ in range(1000)])


if __name__ == "__main__":
    main()
