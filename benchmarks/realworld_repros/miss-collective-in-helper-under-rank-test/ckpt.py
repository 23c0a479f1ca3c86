import torch.distributed.checkpoint as dcp


def save(model, step):
    dcp.save({"model": model.state_dict()}, checkpoint_id=f"ckpt/{step}")
