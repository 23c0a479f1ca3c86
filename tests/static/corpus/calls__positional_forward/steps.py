import torch
import torch.nn.functional as F


def train_step(model, optimizer, batch):
    logits = model.forward(batch["input_ids"])  # expect: FSD201
    loss = F.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten())
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.detach()


@torch.no_grad()
def reference_logprobs(ref_model, batch):
    """The frozen reference model is a plain module on every rank."""
    logits = ref_model.forward(batch["input_ids"])
    return logits.log_softmax(-1)
