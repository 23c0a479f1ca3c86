import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict


def load_pretrained(model, path: str) -> None:
    """Rank 0 reads the full checkpoint; every rank receives its shards by broadcast."""
    full = torch.load(path, map_location="cpu", mmap=True) if torch.distributed.get_rank() == 0 else {}
    set_model_state_dict(model, full, options=StateDictOptions(full_state_dict=True, broadcast_from_rank0=True))
