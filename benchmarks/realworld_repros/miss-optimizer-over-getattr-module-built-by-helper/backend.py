from torch.distributed.fsdp import fully_shard

from factories import build_optimizer


class Backend:
    def __init__(self, bundle, trainable_attr="transformer"):
        model = getattr(bundle, trainable_attr)
        self.optimizer = build_optimizer(list(model.parameters()), lr=1e-4)
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        self.model = model

    def step(self, x):
        self.model(x).sum().backward()
        self.optimizer.step()
