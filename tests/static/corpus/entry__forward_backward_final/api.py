from warmup import build_and_warm_up

__all__ = ["build_and_warm_up"]
