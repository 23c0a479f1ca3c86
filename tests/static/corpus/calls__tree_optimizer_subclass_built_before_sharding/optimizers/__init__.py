from optimizers.lion import Lion, ScheduledAdamW

__all__ = ("Lion", "ScheduledAdamW")
