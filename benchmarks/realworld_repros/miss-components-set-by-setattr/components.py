import torch


def load_components(path):
    denoiser = torch.load(f"{path}/denoiser.pt", weights_only=False)
    encoder = torch.load(f"{path}/encoder.pt", weights_only=False)
    return {"denoiser": denoiser, "encoder": encoder}
