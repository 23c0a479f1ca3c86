"""`fsdp-lint server`: a Language Server (LSP over stdin and stdout) that lints the project of
every open file, with unsaved buffers in place of the files on disk, so that the editor shows
the findings that cross modules, which the flake8 plugin (one file at a time) cannot see.

- `wiring`: the LSP server itself (pygls): the features it answers and the background runs.
- `projects`: which project and settings govern a file, resolved as the CLI resolves them.
- `linting`: the one call into the engine.
- `conversions`: findings as diagnostics, code actions and hovers.

pygls and lsprotocol come with the `server` extra; nothing else in fsdp-lint imports this package.
"""

from __future__ import annotations

from importlib import metadata
from typing import Optional

INSTALL = 'pip install "fsdp-lint[server]"'


def missing_requirement() -> Optional[str]:
    """What keeps the server from starting in this environment (None: nothing): the command
    says so in a sentence instead of an ImportError's traceback."""
    for package, major in (("pygls", 2), ("lsprotocol", None)):
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            return f"{package} is not installed"
        leading = version.split(".")[0]
        if major is not None and leading.isdigit() and int(leading) < major:
            return f"{package} {version} is installed; the server needs {package}>={major}"
    return None
