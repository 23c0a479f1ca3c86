"""fsdp-lint: static and runtime checks for PyTorch FSDP2 (``fully_shard``) contracts.

Nothing heavy is imported here: the CLI must start fast, the static side must not import torch
and the runtime side must not import astroid.
"""

__version__ = "0.1.0"
