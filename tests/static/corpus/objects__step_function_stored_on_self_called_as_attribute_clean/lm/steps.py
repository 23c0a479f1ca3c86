import torch


def make_train_step(grad_clip):
    def train_step(model, batch, optimizer):
        inputs, labels = batch
        logits = model(inputs)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        optimizer.zero_grad()
        return loss.detach()

    return train_step
