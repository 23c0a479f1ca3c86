import torch


def train_step(model, optimizer, x, y):
    loss = torch.nn.functional.mse_loss(model(x).squeeze(-1), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()


def to_double(model):
    """Train and check in fp64, to compare with a reference run of the same probe."""
    model.double()
    return model


def check_in_double(model, x, y):
    """The loss in fp64, to compare with a reference run of the same probe."""
    with torch.no_grad():
        return torch.nn.functional.mse_loss(model(x.double()).squeeze(-1), y.double()).item()
