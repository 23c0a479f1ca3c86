import torch
import torch.nn.functional as F

from dist_utils import init_distributed
from model import Transformer
from parallel import shard


def main(loader, temperature: float = 1.0):
    mesh = init_distributed()
    teacher = Transformer(32000, 2048, 24).cuda().eval()
    student = shard(Transformer(32000, 1024, 12).float(), mesh).cuda()
    student = student.train()
    optimizer = torch.optim.AdamW(student.parameters(), lr=1e-4)
    for tokens in loader:
        with torch.no_grad():
            target = teacher.forward(tokens)
        logits = student(tokens)
        F.mse_loss(logits, target).backward()
        optimizer.step()
        optimizer.zero_grad()
