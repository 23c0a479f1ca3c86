from dataclasses import dataclass, field


@dataclass
class SchedulerConfig:
    name: str = "StepLR"
    step_size: int = 10


@dataclass
class TrainConfig:
    scheduler: SchedulerConfig = field(default_factory=SchedulerConfig)
    steps: int = 100
