import torch
import torch.distributed as dist
import torch.nn.functional as F

from builder import build_model_and_tokenizer


def clip_loss(logits):
    labels = torch.arange(logits.shape[0], device=logits.device)
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2


def train(cfg, loader):
    dist.init_process_group("nccl")
    model, tokenizer = build_model_and_tokenizer(cfg, dist.get_world_size())  # expect: FSD103
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=0.2)
    for images, captions in loader:
        tokens = tokenizer(captions).cuda()
        loss = clip_loss(model(images.cuda(), tokens))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
