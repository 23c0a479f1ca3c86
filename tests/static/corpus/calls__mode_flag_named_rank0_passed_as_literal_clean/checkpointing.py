import os

import torch.distributed.checkpoint as dcp


def load_base_checkpoint(checkpoint_dir, sharded_state_dict=None, rank0=False):
    """`rank0`: read only the metadata rank 0 wrote (the caller asks on every rank alike)."""
    if rank0 and os.path.isdir(checkpoint_dir):
        state_dict = {"args": None, "iteration": None}
        dcp.load(state_dict=state_dict, checkpoint_id=checkpoint_dir)
        return state_dict
    dcp.load(state_dict=sharded_state_dict, checkpoint_id=checkpoint_dir)
    return sharded_state_dict
