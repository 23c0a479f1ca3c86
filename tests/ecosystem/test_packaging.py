"""What users install: the sdist and the wheel, built as a release builds them, and the wheel
installed into a fresh virtual environment without torch, where it must lint. Offline: the build
uses the running environment's setuptools (`python -m build --no-isolation`), and the install
takes fsdp-lint's dependencies from a wheelhouse repacked from the running environment."""

from __future__ import annotations

import email
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.ecosystem import wheelhouse
from tests.ecosystem.samples import TRAIN

ROOT = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".fsdp_lint_cache",
                              ".pytest_cache", ".hypothesis", ".benchmarks", "*.tmp")


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """`python -m build --no-isolation` on a copy of the checkout: the sdist, then the wheel built
    from the sdist (so a file the sdist lacks breaks the wheel)."""
    source = tmp_path_factory.mktemp("source") / "fsdp-lint"
    shutil.copytree(ROOT, source, ignore=SKIP)
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "deprecated" not in (done.stdout + done.stderr).lower(), done.stdout + done.stderr
    return out


def _metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(archive.read(name))


def test_sdist_has_the_license_the_tests_and_the_example(dist):
    (sdist,) = dist.glob("fsdp_lint-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for expected in ("LICENSE", "README.md", "pyproject.toml", "constraints.txt", ".ci/run", "examples/train.py", "rules/__init__.py",
                     "tests/conftest.py" if (ROOT / "tests" / "conftest.py").exists() else "tests/__init__.py",
                     "tests/ecosystem/test_packaging.py", "tests/ecosystem/data/sarif-schema-2.1.0.json"):
        assert expected in names, expected
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in names)


def test_wheel_has_the_license_and_the_metadata_of_a_published_package(dist):
    (wheel,) = dist.glob("fsdp_lint-*-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "fsdp_lint/py.typed" in names and "fsdp_lint/rules/__init__.py" in names
    assert "fsdp_lint/frontends/server/wiring.py" in names
    assert not any(n.startswith(("tests/", "rules/", "examples/")) for n in names)
    meta = _metadata(wheel)
    assert meta["License-Expression"] == "BSD-3-Clause" and meta["License-File"] == "LICENSE"
    assert "License" not in meta  # the deprecated free-text field
    classifiers = meta.get_all("Classifier")
    for expected in ("Programming Language :: Python :: 3.10", "Programming Language :: Python :: 3.13", "Typing :: Typed",
                     "Topic :: Software Development :: Quality Assurance", "Operating System :: POSIX :: Linux"):
        assert expected in classifiers, expected
    assert not any(c.startswith("License ::") for c in classifiers)  # PEP 639: the expression says it
    urls = dict(url.split(", ", 1) for url in meta.get_all("Project-URL"))
    assert {"Homepage", "Repository", "Issues"} <= set(urls)
    assert "fsdp" in meta["Keywords"] and meta["Author"]
    requires = meta.get_all("Requires-Dist")
    runtime = sorted(r.split(";")[0].strip() for r in requires if 'extra == "runtime"' in r)
    assert runtime == ["numpy", "torch>=2.6"]
    server = sorted(r.split(";")[0].strip() for r in requires if 'extra == "server"' in r)
    assert server == ["lsprotocol", "pygls>=2"]
    assert not any("==" in r.split(";")[0] for r in requires), "published requirements are ranges; pins go in constraints.txt"


def test_the_wheel_lints_in_a_fresh_environment_without_torch(dist, tmp_path):
    (wheel,) = dist.glob("fsdp_lint-*-py3-none-any.whl")
    wheels = wheelhouse.build(tmp_path / "wheels", wheelhouse.fsdp_lint_requirements())
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), **wheelhouse.offline_pip_environment(wheels)}
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert subprocess.run([str(python), "-c", "import torch"], capture_output=True, env=env).returncode != 0
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "train.py").write_text(TRAIN)
    run = subprocess.run([str(venv / "bin" / "fsdp-lint"), "--format", "concise", "train.py"], cwd=tmp_path / "project",
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "train.py:9:7: FSD201" in run.stdout and run.stdout.rstrip().endswith("Found 4 findings (2 FSD201, 1 FSD202, 1 FSD301).\n[*] 2 fixable with the `--fix` option.")
    page = subprocess.run([str(venv / "bin" / "fsdp-lint"), "rule", "FSD108"], env=env, capture_output=True, text=True, timeout=300)
    assert page.returncode == 0 and page.stdout.startswith("# rank-divergent-sharding (FSD108)")  # a runtime-only page, read without torch
    server = subprocess.run([str(venv / "bin" / "fsdp-lint"), "server"], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert server.returncode == 2 and 'pip install "fsdp-lint[server]"' in server.stderr, server.stderr  # the lean install has no pygls


def _sh_commands(section: str) -> list:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    body = readme.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", body, flags=re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def test_ci_runs_exactly_the_readme_commands_in_a_fresh_virtual_environment():
    install, tests = _sh_commands("Install and run"), _sh_commands("Run the tests")
    assert install == ['pip install -e ".[dev]" -c constraints.txt'] and tests == ["python -m pytest -q"]
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.strip() for line in script.splitlines()]
    assert lines.index(install[0]) < lines.index(tests[0])
    assert "python -m venv" in script and "bin/activate" in script
    assert "set -euo pipefail" in script and "|| true" not in script  # pytest's exit 5 (no test ran) fails CI
