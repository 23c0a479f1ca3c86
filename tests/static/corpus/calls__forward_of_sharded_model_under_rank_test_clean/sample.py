import torch


@torch.no_grad()
def generate(model, prompt: torch.Tensor, max_new_tokens: int = 16) -> torch.Tensor:
    model.eval()
    tokens = prompt
    for _ in range(max_new_tokens):
        logits = model(tokens)
        tokens = torch.cat([tokens, logits[:, -1:].argmax(-1)], dim=1)
    model.train()
    return tokens


def generate_example(model, prompt: torch.Tensor, rank: int) -> None:
    """Every rank generates (the forward of a sharded model is a collective); rank 0 prints."""
    sample = generate(model, prompt)
    if rank == 0:
        print(sample.tolist())
