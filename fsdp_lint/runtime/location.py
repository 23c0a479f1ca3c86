"""Where in the user's code something happened: the frame a finding points to.

A finding is reported from deep inside torch (a hook, a patched method) and the guard; the
user wants the line of their script that led there. The user's frame is the innermost one
outside torch, fsdp-lint, the standard library and installed packages; when the whole stack
is library code (a trainer run from an installed package), the innermost frame outside torch
and fsdp-lint. Only called when something is reported or a peer asks where this rank is.
"""

import linecache
import os
import sys
import sysconfig
import threading
from types import FrameType
from typing import Optional, Tuple

import torch

import fsdp_lint
import fsdp_lint.runtime_checks


def _directory(module: object) -> str:
    return os.path.dirname(os.path.abspath(module.__file__)) + os.sep


_OWN = tuple({_directory(torch), _directory(fsdp_lint), _directory(fsdp_lint.runtime_checks)})
_LIBRARIES = _OWN + tuple(
    {os.path.abspath(sysconfig.get_paths()[key]) + os.sep for key in ("stdlib", "platstdlib", "purelib", "platlib")}
)

# Where a thread that waits for its peers in a collective sits, innermost Python frame first:
# the c10d API, functional collectives, FSDP's and DCP's waits on their collectives.
_COLLECTIVE_FILES = (
    os.path.join("distributed", "distributed_c10d.py"),
    os.path.join("distributed", "_functional_collectives.py"),
    os.path.join("_fully_shard", "_fsdp_collectives.py"),
    os.path.join("_fully_shard", "_fsdp_param_group.py"),
    os.path.join("distributed", "checkpoint", "utils.py"),
)


def _is_library(filename: str, libraries: Tuple[str, ...]) -> bool:
    return filename.startswith("<") or os.path.abspath(filename).startswith(libraries)


def user_frame(frame: Optional[FrameType] = None) -> Tuple[Optional[FrameType], int]:
    """The user's frame at or above ``frame`` (default: the caller), and how many frames up it is."""
    start = frame if frame is not None else sys._getframe(1)
    for libraries in (_LIBRARIES, _OWN):
        depth, current = 0, start
        while current is not None:
            if not _is_library(current.f_code.co_filename, libraries):
                return current, depth
            current, depth = current.f_back, depth + 1
    return None, 0


def describe(frame: Optional[FrameType]) -> Optional[str]:
    """``train.py:42 in main: loss = model(x)``, the path relative to the working directory when inside it."""
    if frame is None:
        return None
    filename = frame.f_code.co_filename
    try:
        relative = os.path.relpath(filename)
        shown = filename if relative.startswith("..") else relative
    except ValueError:  # another drive (Windows)
        shown = filename
    line = linecache.getline(filename, frame.f_lineno).strip()
    code = f": {line}" if line else ""
    return f"{shown}:{frame.f_lineno} in {frame.f_code.co_name}{code}"


def here() -> Optional[str]:
    """The user's line that led to the current call."""
    return describe(user_frame(sys._getframe(1))[0])


def thread_state(thread_id: int) -> Tuple[str, Optional[str]]:
    """What a thread is doing, as another rank is told: ``("collective"|"running"|"gone", where)``.

    "collective" means its innermost Python frame is one that waits on a collective (the c10d
    API, a functional collective, FSDP's or DCP's wait): the thread is most likely blocked in a
    collective its peers have not joined.
    """
    frame = sys._current_frames().get(thread_id)
    if frame is None:
        return "gone", None
    name = frame.f_code.co_filename
    state = "collective" if any(name.endswith(marker) for marker in _COLLECTIVE_FILES) else "running"
    return state, describe(user_frame(frame)[0])


def main_thread_id() -> int:
    return threading.main_thread().ident or 0
