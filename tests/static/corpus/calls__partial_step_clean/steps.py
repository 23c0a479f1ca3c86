import torch
import torch.nn.functional as F


@torch.no_grad()
def teacher_logits(teacher, tokens):
    return teacher.forward(tokens)


def distill_step(student, optimizer, tokens, targets, temperature: float):
    logits = student(tokens)
    loss = F.kl_div((logits / temperature).log_softmax(-1), (targets / temperature).softmax(-1), reduction="batchmean")
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss
