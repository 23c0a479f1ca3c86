from torch.distributed.fsdp import fully_shard
from transformers.trainer_utils import unwrap_peft_model


def backbone_of(model):
    """The module that holds the decoder layers, under a PEFT wrapper or not."""
    model = unwrap_peft_model(model)
    return model.model


def shard(model):
    layers = backbone_of(model).layers
    fully_shard(model)
    for layer in layers:
        fully_shard(layer)
