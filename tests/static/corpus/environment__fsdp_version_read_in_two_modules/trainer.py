import torch

from dist_utils import init_distributed
from model import Transformer
from parallel import wrap_model
from utils import clip_gradients, log_metrics


def train(loader, max_grad_norm: float = 1.0):
    mesh = init_distributed()
    model = wrap_model(Transformer(32000, 2048, 16), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    for step, (tokens, labels) in enumerate(loader):
        logits = model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        grad_norm = clip_gradients(model, max_grad_norm)
        optimizer.step()
        optimizer.zero_grad()
        log_metrics(step, loss, grad_norm)
