"""Runtime checks, one contract per module, named like their static twins in ``fsdp_lint.rules``."""
