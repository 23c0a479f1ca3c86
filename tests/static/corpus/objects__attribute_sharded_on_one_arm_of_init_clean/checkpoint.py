import torch.distributed.checkpoint as dcp


def save_projector(projector, path: str) -> None:
    if projector is None:
        return
    dcp.save({"projector": projector.state_dict()}, checkpoint_id=path)
