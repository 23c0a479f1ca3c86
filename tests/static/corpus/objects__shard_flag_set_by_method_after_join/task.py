import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import fully_shard


class TrainingTask(nn.Module):
    """The model and its loss; shards itself when asked to, and says so by `_fsdp_enabled`."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.trainable_module = model
        self._fsdp_enabled = False

    def prepare_fsdp(self, reshard_after_forward: bool = True) -> None:
        for block in self.trainable_module.blocks:
            fully_shard(block, reshard_after_forward=reshard_after_forward)
        fully_shard(self.trainable_module, reshard_after_forward=reshard_after_forward)
        self._fsdp_enabled = True

    def training_step(self, tokens: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.mse_loss(self.trainable_module(tokens), targets)

    def state_dict(self) -> dict:
        if self._fsdp_enabled:
            options = StateDictOptions(cpu_offload=True)  # each rank's shards, offloaded
            return get_model_state_dict(self.trainable_module, options=options)
        return self.trainable_module.state_dict()
