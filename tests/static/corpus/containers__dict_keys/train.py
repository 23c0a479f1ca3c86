import torch
from diffusers import AutoencoderKL, DDPMScheduler
from transformers import CLIPTextModel

from dist_utils import init_distributed
from dit import DiT
from parallel import shard_dit
from step import diffusion_step


def main(loader, pretrained: str):
    mesh = init_distributed()
    dit = DiT(in_channels=4, dim=1152, depth=28)
    shard_dit(dit, mesh)
    vae = AutoencoderKL.from_pretrained(pretrained, subfolder="vae").cuda().eval()
    text_encoder = CLIPTextModel.from_pretrained(pretrained, subfolder="text_encoder").cuda().eval()
    models = {"dit": dit, "vae": vae, "text_encoder": text_encoder}
    optimizer = torch.optim.AdamW(dit.parameters(), lr=1e-4)
    noise_scheduler = DDPMScheduler.from_pretrained(pretrained, subfolder="scheduler")
    for batch in loader:
        diffusion_step(models, optimizer, noise_scheduler, batch)
