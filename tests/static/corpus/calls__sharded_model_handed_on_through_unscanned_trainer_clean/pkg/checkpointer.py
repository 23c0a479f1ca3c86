import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict


class Checkpointer:
    def __init__(self, sharded: bool):
        self.sharded = sharded

    def save(self, model, iteration):
        if self.sharded:
            dcp.save({"model": get_model_state_dict(model)}, checkpoint_id=f"ckpt_{iteration}")
        else:
            full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
            if dist.get_rank() == 0:
                torch.save(full, f"model_{iteration}.pt")
