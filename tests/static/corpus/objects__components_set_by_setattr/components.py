import torch


def load_components(path: str) -> dict:
    """Whole pickled modules, as the exporting pipeline wrote them."""
    denoiser = torch.load(f"{path}/denoiser.pt", weights_only=False)
    text_encoder = torch.load(f"{path}/text_encoder.pt", weights_only=False)
    return {"denoiser": denoiser, "text_encoder": text_encoder}
