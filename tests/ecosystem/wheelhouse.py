"""An offline package index for tests that install fsdp-lint as users do (pre-commit's hook
environment, a wheel in a fresh virtual environment): wheels of the distributions the running
interpreter already has, repacked from their installed files.

CI machines reach no index, and a test must not depend on what the base interpreter happens to
have installed: this works the same from the base interpreter and from a fresh virtual environment.
A repacked wheel holds the files the distribution's RECORD lists (less bytecode and scripts), under
the tag its WHEEL file declares; pip installs it like the original.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.metadata as metadata
import io
import os
import re
import zipfile
from pathlib import Path
from typing import Iterable, List, Set

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def repack(name: str, directory: Path) -> Path:
    """A wheel of the installed distribution `name`, written into `directory`."""
    dist = metadata.distribution(name)
    wheel_info = dist.read_text("WHEEL") or "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    tags = re.findall(r"^Tag: *(\S+)", wheel_info, flags=re.M) or ["py3-none-any"]
    project = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    parts = [sorted({tag.split("-")[i] for tag in tags}) for i in range(3)]  # py2.py3-none-any
    target = directory / f"{project}-{dist.version}-{'-'.join('.'.join(p) for p in parts)}.whl"
    info_dir = None
    records: List[List[str]] = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for file in dist.files or ():
            relative = str(file).replace(os.sep, "/")
            if relative.startswith("..") or "__pycache__" in relative or relative.endswith((".pyc", ".pyo")):
                continue  # scripts (pip writes them anew) and bytecode
            top = relative.split("/", 1)[0]
            if top.endswith(".dist-info"):
                info_dir = top
                if relative.endswith(("/RECORD", "/INSTALLER", "/REQUESTED", "/direct_url.json")):
                    continue
            path = Path(file.locate())
            if not path.is_file():
                continue
            data = path.read_bytes()
            wheel.writestr(relative, data)
            records.append([relative, _digest(data), str(len(data))])
        assert info_dir is not None, f"{name} has no .dist-info directory"
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerows(records + [[f"{info_dir}/RECORD", "", ""]])
        wheel.writestr(f"{info_dir}/RECORD", buffer.getvalue())
    return target


def requirements_closure(names: Iterable[str]) -> Set[str]:
    """The distributions `names` need when installed here, transitively (markers evaluated for
    the running interpreter)."""
    environment = default_environment()
    seen: Set[str] = set()
    pending = list(names)
    while pending:
        name = canonicalize_name(pending.pop())
        if name in seen:
            continue
        seen.add(name)
        for line in metadata.requires(name) or ():
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({**environment, "extra": ""}):
                pending.append(requirement.name)
    return seen


def build(directory: Path, names: Iterable[str]) -> Path:
    """A find-links directory with `names` and everything they need."""
    directory.mkdir(parents=True, exist_ok=True)
    for name in sorted(requirements_closure(names)):
        repack(name, directory)
    return directory


def fsdp_lint_requirements() -> List[str]:
    """fsdp-lint's own dependencies as installed here (without the extras)."""
    environment = default_environment()
    found = []
    for line in metadata.requires("fsdp-lint") or ():
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate({**environment, "extra": ""}):
            found.append(requirement.name)
    return found


def offline_pip_environment(find_links: Path) -> dict:
    """Environment variables that make pip (and virtualenv, which pre-commit uses) install from
    `find_links` alone, ignoring the machine's pip configuration."""
    return {
        "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(find_links),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1", "VIRTUALENV_NO_PERIODIC_UPDATE": "1",
    }
