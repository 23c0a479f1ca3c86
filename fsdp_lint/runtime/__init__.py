"""The runtime guard (see fsdp_lint.runtime.enable)."""
