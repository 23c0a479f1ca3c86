import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, get_optimizer_state_dict


def save(model, path: str):
    full = StateDictOptions(full_state_dict=True, cpu_offload=True)
    state = {
        "model": get_model_state_dict(model, options=full),
        "optimizer": model.optimizer.state_dict(),
        "scheduler": model.scheduler.state_dict(),
    }
    if dist.get_rank() == 0:
        torch.save(state, path)  # expect: FSD301
