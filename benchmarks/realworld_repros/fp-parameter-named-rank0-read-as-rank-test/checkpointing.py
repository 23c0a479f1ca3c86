import torch.distributed.checkpoint as dcp


def load_base_checkpoint(checkpoint_dir, sharded_state_dict=None, rank0=False):
    """`rank0`: read only the metadata written by rank 0 (the caller passes the same value on
    every rank), not "this process is rank 0"."""
    if rank0:
        state_dict = {"args": None, "iteration": None}
        dcp.load(state_dict=state_dict, checkpoint_id=checkpoint_dir)
    else:
        state_dict = sharded_state_dict
        dcp.load(state_dict=state_dict, checkpoint_id=checkpoint_dir)
    return state_dict
