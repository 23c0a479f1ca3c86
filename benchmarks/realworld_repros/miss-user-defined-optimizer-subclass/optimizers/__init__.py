from optimizers.adamw import AdamW

__all__ = ("AdamW",)
