from dataclasses import dataclass, field


@dataclass
class DistributedConfig:
    use_ddp: bool = False
    use_fsdp: bool = True
    reshard_after_forward: bool = True


@dataclass
class TrainConfig:
    steps: int = 1000
    save_every: int = 250
    compile: bool = False
    checkpoint_dir: str = "checkpoints"
    distributed: DistributedConfig = field(default_factory=DistributedConfig)
