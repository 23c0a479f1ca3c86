"""Module names are the ones Python gives the files when the project runs from its checkout, so a
finding that needs an import of the tree's own modules is reported however the tree is linted:
a stray `__init__.py` at the checkout's top (chrisociepa/allamo, FastVideo), a `src/` that holds
one, a linted package directory, many scripts that share a name."""

from __future__ import annotations

import os

import pytest

from fsdp_lint.engine.lint import LintOptions, lint_paths
from fsdp_lint.engine.module_names import analysed_module_names, module_names
from fsdp_lint.selection import Selection
from tests.static.helpers import write_tree

PARALLEL = """\
from torch.distributed.fsdp import fully_shard


def shard_model(model, mesh):
    for block in model.blocks:
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
    return model
"""
MODEL = """\
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.blocks = nn.ModuleList(nn.Linear(width, width) for _ in range(4))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x
"""
# The optimizer is built over the parameters that `shard_model`, in another module, replaces:
# only an import of the tree's own package connects the two.
TRAIN = """\
import torch
from torch.distributed.device_mesh import init_device_mesh

from {package}.model import Decoder
from {package}.parallel import shard_model


def main():
    mesh = init_device_mesh("cuda", (8,))
    model = Decoder(1024)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    model = shard_model(model, mesh)
    for step in range(100):
        model(torch.randn(4, 1024)).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main()
"""
OPTIMIZER_LINE = 11


def _checkout(root, package_dir: str, package: str, extra=()) -> None:
    files = {
        f"{package_dir}/__init__.py": "",
        f"{package_dir}/model.py": MODEL,
        f"{package_dir}/parallel.py": PARALLEL,
        "train.py": TRAIN.format(package=package),
    }
    files.update({path: "" for path in extra})
    write_tree(root, files)


def _found(paths):
    result = lint_paths([str(p) for p in paths], LintOptions(selection=Selection(("FSD202",))))
    assert not result.internal_errors, result.internal_errors[0].trace
    return [(os.path.relpath(v.path), v.line, v.code) for v in result.violations]


@pytest.mark.parametrize(
    "checkout, package_dir, extra",
    [
        # a checkout named as a package could be, with an `__init__.py` at its top
        ("trainer", "trainer_lib", ("__init__.py",)),
        # a name Python could never import (the export of a repository, `owner+name`)
        ("my-trainer", "trainer_lib", ("__init__.py",)),
        # `src/` layout whose `src/` and checkout are packages too
        ("trainer", "src/trainer_lib", ("__init__.py", "src/__init__.py")),
    ],
)
def test_stray_init_at_the_checkout_top_leaves_imports_resolving(tmp_path, monkeypatch, checkout, package_dir, extra):
    root = tmp_path / checkout
    _checkout(root, package_dir, "trainer_lib", extra)
    monkeypatch.chdir(tmp_path)
    expected = [(os.path.join(checkout, "train.py"), OPTIMIZER_LINE, "FSD202")]
    assert _found([root]) == expected
    assert _found([tmp_path]) == expected  # its parent linted, the checkout is one of its trees


def test_a_linted_package_directory_keeps_its_own_name(tmp_path, monkeypatch):
    """`site-packages/torch` linted alone: its modules import each other as `torch.…`."""
    package = tmp_path / "site" / "trainer_lib"
    write_tree(package, {
        "__init__.py": "",
        "model.py": MODEL,
        "parallel.py": PARALLEL,
        "cli/__init__.py": "",
        "cli/train.py": TRAIN.format(package="trainer_lib"),
    })
    monkeypatch.chdir(tmp_path)
    assert _found([package]) == [(os.path.join("site", "trainer_lib", "cli", "train.py"), OPTIMIZER_LINE, "FSD202")]


def test_scripts_that_share_a_name_stay_apart(tmp_path, monkeypatch):
    """Two experiments' `train.py` beside a package with a stray checkout `__init__.py`: the one
    that builds its optimizer after sharding is clean, the other is not."""
    _checkout(tmp_path / "trainer", "trainer_lib", "trainer_lib", ("__init__.py",))
    late = TRAIN.format(package="trainer_lib").replace(
        "    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)\n    model = shard_model(model, mesh)\n",
        "    model = shard_model(model, mesh)\n    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)\n",
    )
    assert late != TRAIN.format(package="trainer_lib")
    write_tree(tmp_path / "trainer", {"exp_a/train.py": TRAIN.format(package="trainer_lib"), "exp_b/train.py": late})
    monkeypatch.chdir(tmp_path)
    found = _found([tmp_path / "trainer"])
    assert found == [(os.path.join("trainer", path), OPTIMIZER_LINE, "FSD202") for path in ("exp_a/train.py", "train.py")]


@pytest.mark.parametrize(
    "package_dir, package, extra",
    [
        # directories without `__init__.py` (PEP 420), imported from the checkout
        ("trainer_lib", "trainer_lib", ()),
        ("libs/trainer_lib", "libs.trainer_lib", ()),
        # a regular package inside a namespace package
        ("libs/trainer_lib", "libs.trainer_lib", ("libs/trainer_lib/__init__.py",)),
        # a namespace package inside a regular one
        ("pkg/trainer_lib", "pkg.trainer_lib", ("pkg/__init__.py",)),
    ],
)
def test_namespace_packages_resolve_from_the_checkout(tmp_path, monkeypatch, package_dir, package, extra):
    root = tmp_path / "trainer"
    write_tree(root, {
        f"{package_dir}/model.py": MODEL,
        f"{package_dir}/parallel.py": PARALLEL,
        "train.py": TRAIN.format(package=package),
        **{path: "" for path in extra},
    })
    monkeypatch.chdir(tmp_path)
    assert _found([root]) == [(os.path.join("trainer", "train.py"), OPTIMIZER_LINE, "FSD202")]
    # and from inside the checkout, as CI runs `fsdp-lint .` (a relative path has no directory
    # above `.` in common: the names were those of scripts, and the imports resolved nowhere)
    monkeypatch.chdir(root)
    assert _found(["."]) == [("train.py", OPTIMIZER_LINE, "FSD202")]
    assert _found(["train.py", package_dir.split("/")[0]]) == [("train.py", OPTIMIZER_LINE, "FSD202")]


def test_a_namespace_package_inside_the_only_package_of_the_checkout(tmp_path, monkeypatch):
    """Every file inside one regular package, its helpers in a directory without `__init__.py`
    (facebookresearch/optimizers' `distributed_shampoo/tests/`): the common directory of the files
    is the package, and its namespace subpackage is still named through it."""
    write_tree(tmp_path / "trainer", {
        "pkg/__init__.py": "",
        "pkg/trainer_lib/model.py": MODEL,
        "pkg/trainer_lib/parallel.py": PARALLEL,
        "pkg/train.py": TRAIN.format(package="pkg.trainer_lib"),
    })
    monkeypatch.chdir(tmp_path)
    assert _found([tmp_path / "trainer"]) == [(os.path.join("trainer", "pkg", "train.py"), OPTIMIZER_LINE, "FSD202")]


def test_a_directory_no_import_names_from_above_keeps_its_scripts_names(tmp_path, monkeypatch):
    """`python scripts/train.py` imports its neighbours by their own names: a directory that no
    import reaches as a namespace package is the root of its files."""
    write_tree(tmp_path / "trainer", {
        "scripts/model.py": MODEL,
        "scripts/parallel.py": PARALLEL,
        "scripts/train.py": TRAIN.replace("{package}.", ""),
        "README.py": "",
    })
    monkeypatch.chdir(tmp_path)
    assert _found([tmp_path / "trainer"]) == [(os.path.join("trainer", "scripts", "train.py"), OPTIMIZER_LINE, "FSD202")]


def test_the_names_a_cached_run_is_keyed_by_read_no_file():
    """A run answered from the cache stats the files instead of reading them: the names its key
    records come from the files' places alone, and only the analysis reads the imports that name
    the files of namespace packages from above."""
    class Unread(dict):
        def __getitem__(self, path):
            raise AssertionError(f"{path} read")

        def values(self):
            raise AssertionError("files read")

    paths = {"ckpt/train.py": "from models.lm.model import LM\n", "ckpt/models/lm/model.py": "class LM: ...\n"}
    assert module_names(Unread.fromkeys(paths), lambda directory: False) == {"ckpt/train.py": "train", "ckpt/models/lm/model.py": "model"}
    assert analysed_module_names(paths, lambda directory: False) == {"ckpt/train.py": "train", "ckpt/models/lm/model.py": "models.lm.model"}
