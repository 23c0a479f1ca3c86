from backends import ShardedBackend


def make_backend(kind: str, world_size: int):
    """The backend a run's config names."""
    if kind == "fsdp":
        return ShardedBackend.build(world_size)
    raise ValueError(f"unknown backend {kind!r}")
