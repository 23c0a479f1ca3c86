from torch import nn
from torch.distributed.fsdp import fully_shard


class BaseModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config

    def _fully_shard(self, mesh, mp_policy, reshard_after_forward=True, offload_policy=None, module=None):
        """Make `module` a unit of its own, or the whole model when no module is given."""
        target = module or self
        fully_shard(target, mesh=mesh, mp_policy=mp_policy, reshard_after_forward=reshard_after_forward, offload_policy=offload_policy)
