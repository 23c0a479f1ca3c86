import torch
from torch.distributed.fsdp import fully_shard

from gan import Discriminator, Generator


def shard_net(net, mesh):
    for block in net.blocks:
        fully_shard(block, mesh=mesh)
    fully_shard(net, mesh=mesh)


def build_gan(z_dim: int, channels: int, n_blocks: int, mesh):
    generator = Generator(z_dim, channels, n_blocks)
    discriminator = Discriminator(channels, n_blocks)
    for net in [generator, discriminator]:
        shard_net(net, mesh)
    opt_g = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999))
    return generator, discriminator, opt_g, opt_d
