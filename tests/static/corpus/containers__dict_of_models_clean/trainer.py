import torch
import torch.nn.functional as F

from dist_utils import init_distributed
from distributed import model_to_fsdp
from networks import DiT, Discriminator


def main(loader, dim: int = 1152):
    mesh = init_distributed()
    net = DiT(in_channels=4, dim=dim, depth=28)
    discriminator = Discriminator(dim)
    model_to_fsdp({"net": net, "discriminator": discriminator}, mesh)
    net_optimizer = torch.optim.AdamW(net.parameters(), lr=1e-4)
    disc_optimizer = torch.optim.AdamW(discriminator.parameters(), lr=1e-4)
    for latents, noise in loader:
        pred, logvar = net(latents + noise)
        loss = (F.mse_loss(pred, noise) / logvar.exp() + logvar).mean()
        loss.backward()
        net_optimizer.step()
        net_optimizer.zero_grad()
        F.softplus(-discriminator(pred.detach().mean(1))).mean().backward()
        disc_optimizer.step()
        disc_optimizer.zero_grad()
