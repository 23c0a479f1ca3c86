import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_state_dict


def load_seed_checkpoint(model, path):
    """A seed checkpoint written once by a single process: loaded in place into the sharded
    parameters, each rank reading its shards."""
    model_sd, _ = get_state_dict(model, [], options=StateDictOptions(strict=False))
    dcp.load(model_sd, checkpoint_id=path)
