from dataclasses import dataclass

from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


@dataclass
class StrategyConfig:
    fsdp: bool = False
    reshard_after_forward: bool = True
    lr: float = 1e-4

    @classmethod
    def from_args(cls, args) -> "StrategyConfig":
        return cls(fsdp=args.fsdp, reshard_after_forward=not args.zero2, lr=args.lr)


class Strategy:
    """Replicated or FSDP training, as the command line says."""

    def __init__(self, args):
        self.args = args
        self.config = StrategyConfig.from_args(args)

    def prepare_model(self, model, mesh):
        if not self.config.fsdp:
            return model
        policy = MixedPrecisionPolicy(param_dtype=None)
        for block in model.layers:
            fully_shard(block, mesh=mesh, mp_policy=policy, reshard_after_forward=self.config.reshard_after_forward)
        fully_shard(model, mesh=mesh, mp_policy=policy)
        return model
