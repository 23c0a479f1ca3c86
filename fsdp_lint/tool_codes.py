"""Codes that the engine itself reports (FSD0xx): they document themselves like any rule."""

from __future__ import annotations

from fsdp_lint.contract import Contract


class UnanalysableFile(Contract):
    """A file could not be analysed, so none of its findings are known.

    ## What it does
    Reports a Python file that fsdp-lint could not read or parse: a syntax error (including syntax
    newer than the running Python), bytes that do not decode with the file's declared or default
    encoding, NUL bytes, nesting too deep for the parser, or a path that cannot be read.

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
