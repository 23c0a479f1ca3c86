from torch.distributed.fsdp import fully_shard

from proj.models import MLP
from proj.utils.checkpoint import save_checkpoint


def test_round_trip(tmp_path):
    model = MLP()
    fully_shard(model)
    save_checkpoint(tmp_path, model)
