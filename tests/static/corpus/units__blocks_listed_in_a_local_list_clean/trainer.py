import torch
import torch.nn.functional as F
from torch.distributed.fsdp import fully_shard

from models import Generator, PatchDiscriminator, ResBlock


class GANTrainer:
    def __init__(self, ch: int, mesh):
        self.generator = Generator(ch, n_blocks=9)
        for module in self.generator.modules():
            if isinstance(module, ResBlock):
                fully_shard(module, mesh=mesh)
        fully_shard(self.generator, mesh=mesh)
        self.discriminator = PatchDiscriminator(ch, n_layers=3)
        fully_shard(self.discriminator, mesh=mesh)
        self.opt_g = torch.optim.Adam(self.generator.parameters(), lr=2e-4)
        self.opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=2e-4)

    def step(self, real, z):
        fake = self.generator(z)
        d_loss = F.relu(1 - self.discriminator(real)).mean() + F.relu(1 + self.discriminator(fake.detach())).mean()
        d_loss.backward()
        self.opt_d.step()
        self.opt_d.zero_grad()
        g_loss = -self.discriminator(fake).mean()
        g_loss.backward()
        self.opt_g.step()
        self.opt_g.zero_grad()
        return d_loss.item(), g_loss.item()
