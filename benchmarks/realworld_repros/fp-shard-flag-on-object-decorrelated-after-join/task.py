import torch.nn as nn
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import fully_shard


class TrainingTask(nn.Module):
    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.trainable_module = model
        self._fsdp_enabled = False

    def prepare_fsdp(self) -> None:
        for block in self.trainable_module.blocks:
            fully_shard(block)
        fully_shard(self.trainable_module)
        self._fsdp_enabled = True

    def state_dict(self) -> dict:
        if self._fsdp_enabled:
            options = StateDictOptions(full_state_dict=True, cpu_offload=True)
            return get_model_state_dict(self.trainable_module, options=options)
        return self.trainable_module.state_dict()
