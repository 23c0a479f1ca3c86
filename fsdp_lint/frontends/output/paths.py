"""Paths as CI services match them against the checkout: relative, with `/` separators."""

from __future__ import annotations

import os


def portable(path: str) -> str:
    """`path` relative to the working directory when it lies under it (GitHub resolves annotation
    and SARIF paths from the repository root, where CI runs the linter), with `/` separators."""
    absolute = os.path.abspath(path)
    here = os.getcwd()
    if os.path.isabs(path) and (absolute == here or absolute.startswith(here.rstrip(os.sep) + os.sep)):
        path = os.path.relpath(absolute, here)
    return os.path.normpath(path).replace(os.sep, "/")
