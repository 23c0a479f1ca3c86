"""The pre-commit hook, installed and run by pre-commit itself (`pre-commit try-repo`).

The hook is `language: python`, so pre-commit builds a virtualenv and pip-installs fsdp-lint from
the hook repository: exactly what users get. CI machines have no network, so the test keeps that
install path and only makes it offline, and self-contained: pip installs from a local wheelhouse
(`tests/ecosystem/wheelhouse.py`: fsdp-lint's dependencies and setuptools, repacked from the
running environment) and nothing else, with the machine's pip configuration ignored. So the test
passes or fails the same from the base interpreter and from a fresh virtual environment, whatever
the base interpreter has installed. `language: system` would have avoided the install, and with it
the part of the hook most likely to break.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ecosystem import wheelhouse
from tests.ecosystem.samples import CLEAN, TRAIN
from tests.static.helpers import write_tree

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", ".pre-commit-hooks.yaml", "fsdp_lint", "rules", "runtime_checks")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory) -> Path:
    """fsdp-lint's dependencies, and setuptools for pip's isolated build of the hook repository."""
    return wheelhouse.build(tmp_path_factory.mktemp("wheels"), [*wheelhouse.fsdp_lint_requirements(), "setuptools"])


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=cwd, check=True, capture_output=True)


def pre_commit(*args: str, cwd: Path, home: Path, wheels: Path) -> subprocess.CompletedProcess:
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUALENV_", "PYTHON"))}
    env = dict(inherited, PRE_COMMIT_HOME=str(home), NO_COLOR="1", **wheelhouse.offline_pip_environment(wheels))
    command = [sys.executable, "-m", "pre_commit", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_manifest_is_valid(tmp_path, wheels):
    done = pre_commit("validate-manifest", str(ROOT / ".pre-commit-hooks.yaml"), cwd=tmp_path, home=tmp_path / "home", wheels=wheels)
    assert done.returncode == 0, done.stdout + done.stderr


def test_try_repo_installs_the_hook_and_fails_on_findings(tmp_path, wheels):
    hook_repo = tmp_path / "fsdp-lint"
    hook_repo.mkdir()
    for name in PROJECT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, hook_repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, hook_repo / name)
    git("init", "-q", cwd=hook_repo)
    git("add", "-A", cwd=hook_repo)
    git("commit", "-qm", "hook", cwd=hook_repo)

    sample = tmp_path / "sample"
    write_tree(
        sample,
        {
            "train.py": TRAIN,
            "clean.py": CLEAN,
            "vendored/copy.py": TRAIN,  # named explicitly by pre-commit, excluded by force-exclude
            "pyproject.toml": '[tool.fsdp-lint]\nextend-exclude = ["vendored/"]\n',
        },
    )
    git("init", "-q", cwd=sample)
    git("add", "-A", cwd=sample)

    done = pre_commit("try-repo", str(hook_repo), "fsdp-lint", "--all-files", cwd=sample, home=tmp_path / "home", wheels=wheels)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "fsdp-lint....." in output and "Failed" in output
    assert "train.py:9:7: FSD201" in output
    assert "Found 4 findings (2 FSD201, 1 FSD202, 1 FSD301)." in output
    assert "vendored" not in output.split("Failed", 1)[1]
