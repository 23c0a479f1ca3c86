import functools

import torch

from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp
from steps import distill_step, teacher_logits


def main(loader, temperature: float = 2.0):
    mesh = init_distributed()
    teacher = Transformer(32000, 4096, 32).cuda().eval()
    student = apply_fsdp(Transformer(32000, 1024, 12), mesh)
    optimizer = torch.optim.AdamW(student.parameters(), lr=5e-4)
    targets_for = functools.partial(teacher_logits, teacher)
    step = functools.partial(distill_step, student, optimizer, temperature=temperature)
    for tokens in loader:
        step(tokens, targets_for(tokens))
