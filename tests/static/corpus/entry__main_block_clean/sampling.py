import torch


@torch.no_grad()
def sample(model, prompt, max_new_tokens: int, temperature: float = 0.8):
    """Plain sampling for single-device use: calls the bare forward to skip the module hooks."""
    tokens = prompt
    for _ in range(max_new_tokens):
        logits = model.forward(tokens)[:, -1] / temperature
        tokens = torch.cat([tokens, torch.multinomial(logits.softmax(-1), 1)], dim=1)
    return tokens


@torch.no_grad()
def sample_sharded(model, prompt, max_new_tokens: int, temperature: float = 0.8):
    tokens = prompt
    for _ in range(max_new_tokens):
        logits = model(tokens)[:, -1] / temperature
        tokens = torch.cat([tokens, torch.multinomial(logits.softmax(-1), 1)], dim=1)
    return tokens
