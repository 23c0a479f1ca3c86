"""The base class of static rules and the examples that document and test them.

A rule is one class in one file of `fsdp_lint.rules`: its docstring is its documentation page
(What it does / Why is this bad? / Example / Use instead), `VALID` and `INVALID` are examples the
test suite runs, and its methods are called by the flow interpreter at each call of each scope.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import Callable, ClassVar, Dict, Optional, Sequence, Tuple, Union

from astroid import nodes

from fsdp_lint.analysis.flow import CallListener, Flow
from fsdp_lint.contract import Contract
from fsdp_lint.violation import Edit

Sources = Union[str, Dict[str, str]]
EXPECT_MARKER = re.compile(r"#\s*expect:\s*(FSD\d{3})")


@dataclass(frozen=True)
class Example:
    """Source of one or more files; a plain string is the single file `example.py`."""

    source: Sources

    def files(self) -> Dict[str, str]:
        if isinstance(self.source, str):
            return {"example.py": textwrap.dedent(self.source)}
        return {path: textwrap.dedent(text) for path, text in self.source.items()}

    def expected(self) -> Tuple[Tuple[str, int, str], ...]:
        """(path, line, code) of each `# expect: FSDnnn` marker."""
        found = []
        for path, text in self.files().items():
            for number, line in enumerate(text.splitlines(), start=1):
                found.extend((path, number, code) for code in EXPECT_MARKER.findall(line))
        return tuple(sorted(found))


class Valid(Example):
    """Code the rule must accept."""


class Invalid(Example):
    """Code the rule must reject, at each line marked `# expect: FSDnnn` and nowhere else."""


Reporter = Callable[["Rule", nodes.NodeNG, str, Optional[str], Optional[Edit]], None]


class Rule(Contract, CallListener):
    """Base class: subclasses override `on_call` and/or `on_function_end` and call `report`."""

    message: ClassVar[str]
    help: ClassVar[str]
    VALID: ClassVar[Sequence[Valid]] = ()
    INVALID: ClassVar[Sequence[Invalid]] = ()

    def __init__(self, reporter: Reporter):
        self._reporter = reporter

    def report(self, node: nodes.NodeNG, message: Optional[str] = None, *, help: Optional[str] = None, fix: Optional[Edit] = None) -> None:
        self._reporter(self, node, message or self.message, help or self.help, fix)

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        pass

    def on_function_end(self, flow: Flow) -> None:
        pass
