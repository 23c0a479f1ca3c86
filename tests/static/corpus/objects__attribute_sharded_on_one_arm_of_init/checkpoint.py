import torch


def save_projector(projector, path: str) -> None:
    if projector is None:
        return
    torch.save(projector.state_dict(), path)  # expect: FSD301
