import torch
import torch.nn.functional as F

from dist_utils import init_distributed
from setup_gan import build_gan


def main(loader, z_dim: int = 128):
    mesh = init_distributed()
    generator, discriminator, opt_g, opt_d = build_gan(z_dim, 256, 8, mesh)
    for real in loader:
        fake = generator(torch.randn(real.shape[0], z_dim, device="cuda"))
        d_loss = F.softplus(discriminator(fake.detach())).mean() + F.softplus(-discriminator(real)).mean()
        d_loss.backward()
        opt_d.step()
        opt_d.zero_grad()
        g_loss = F.softplus(-discriminator(fake)).mean()
        g_loss.backward()
        opt_g.step()
        opt_g.zero_grad()
