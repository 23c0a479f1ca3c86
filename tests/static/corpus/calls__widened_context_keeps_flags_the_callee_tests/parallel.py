import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, set_model_state_dict
from torch.distributed.fsdp import fully_shard


def shard_model(model, config):
    full = {}
    if config.load_on_rank0 and dist.get_rank() == 0:
        full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))  # expect: FSD206
    fully_shard(model, reshard_after_forward=config.reshard_after_forward)
    if config.load_on_rank0:
        set_model_state_dict(model, full, options=StateDictOptions(full_state_dict=True, broadcast_from_rank0=True))
