from torch.distributed.fsdp import fully_shard
from torch.optim import AdamW

from net import CausalLM
from optim_utils import OptimizerHolder, build_optimizer


def shard(model):
    for block in model.model.layers:
        fully_shard(block)
    fully_shard(model)


def train_direct():
    model = CausalLM()
    optimizer = build_optimizer(model, AdamW, 1e-4)
    shard(model)
    model(None).sum().backward()
    optimizer.step()


def train_held():
    model = CausalLM()
    holder = OptimizerHolder(AdamW, [model], 1e-4)
    shard(model)
    model(None).sum().backward()
    holder.step()


train_direct()
train_held()
