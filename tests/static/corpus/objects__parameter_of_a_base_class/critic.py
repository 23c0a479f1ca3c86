import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

from heads import ValueHead


class Critic:
    """A value head trained on returns, sharded over every rank; its scale (a parameter its base
    class declares) is logged in fp32."""

    def __init__(self, dim: int):
        self.mesh = init_device_mesh("cpu", (dist.get_world_size(),))
        self.value_head = ValueHead(dim)
        fully_shard(self.value_head, mesh=self.mesh)
        self.optimizer = torch.optim.AdamW(self.value_head.parameters(), lr=1e-4)

    def update(self, hidden, returns):
        values = self.value_head(hidden)
        torch.nn.functional.mse_loss(values, returns).backward()
        self.optimizer.step()
        self.optimizer.zero_grad()

    def scale_for_logging(self):
        return self.value_head.float().scale.full_tensor()  # expect: FSD204


def main():
    dist.init_process_group("gloo")
    critic = Critic(16)
    for _ in range(4):
        critic.update(torch.randn(8, 16), torch.randn(8))
        print(critic.scale_for_logging().mean().item())


if __name__ == "__main__":
    main()
