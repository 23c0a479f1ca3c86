"""Codes that the engine itself reports (FSD0xx): they document themselves like any rule."""

from __future__ import annotations

from fsdp_lint.contract import Contract


class UnanalysableFile(Contract):
    """A file could not be analysed, so none of its findings are known.

    ## What it does
    Reports a Python file that fsdp-lint could not read or parse: a syntax error, bytes that do not
    decode with the file's declared or default encoding, NUL bytes, nesting too deep for the
    parser, or a path that cannot be read. Syntax newer than the Python the project supports
    (`target-version`, or the lower bound of `requires-python`) is a syntax error for that project;
    syntax that is only newer than the Python running fsdp-lint is FSD002.

    ## Why is this bad?
    A file that is not analysed can hide any of the contract violations that fsdp-lint checks,
    and a CI job that silently skipped it would report a clean tree that is not.

    ## Example
    ```python
    def train(model:
        ...
    ```

    Use instead:
    ```python
    def train(model):
        ...
    ```
    Or exclude the file with `--exclude` / `extend-exclude` if it is not meant to be Python.
    """

    code = "FSD001"
    name = "unanalysable-file"


class NeedsNewerPython(Contract):
    """A valid file uses syntax newer than the Python running fsdp-lint, so it was not analysed.

    ## What it does
    Reports a file that this interpreter cannot parse but a newer Python can: it uses `except*`
    or `X[*Ts]` (3.11), the `type` statement, type parameters or an f-string that PEP 701 allows
    (3.12), type parameter defaults (3.13), template strings or `except A, B:` (3.14), and parses
    once they are set aside. The message names the version and the first such construct.

    It does not fail the run: the exit status is what the other findings make it (0 when there
    are none). The file is not a syntax error, and fsdp-lint cannot tell what is in it. When the
    project declares an older Python (`target-version = "py311"` in `[tool.fsdp-lint]`, or
    `requires-python = ">=3.11"`), the same file is FSD001 instead: the project's own Python
    cannot run it.

    ## Why is this bad?
    The file's contract violations are unknown: a CI job on an older Python than the project's
    reports it clean without having read it.

    ## Example
    ```python
    type Batch = dict[str, torch.Tensor]     # linted under Python 3.11
    ```

    Use instead: run fsdp-lint under the Python the project uses (3.12+ here), for example
    `python3.12 -m pip install fsdp-lint` in CI.
    """

    code = "FSD002"
    name = "needs-newer-python"
    severity = "warning"


# Codes that never decide the exit status: the run exits 0 when they are all it found.
INFORMATIONAL = frozenset({NeedsNewerPython.code})
