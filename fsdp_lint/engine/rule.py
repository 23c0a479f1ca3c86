"""The base class of static rules and the examples that document and test them.

A rule is one class in one file of `fsdp_lint.rules`: its docstring is its documentation page
(What it does / Why is this bad? / Example / Use instead), `VALID` and `INVALID` are examples the
test suite runs, and its methods are called by the flow interpreter at each call of each scope.
"""

from __future__ import annotations

import ast
import functools
import re
import textwrap
from dataclasses import dataclass
from typing import Callable, ClassVar, Dict, FrozenSet, Iterable, Optional, Sequence, Tuple, Union

from astroid import nodes

from fsdp_lint.analysis.flow import CallListener, Flow
from fsdp_lint.analysis.values import Obj
from fsdp_lint.contract import Contract
from fsdp_lint.violation import Fix

Sources = Union[str, Dict[str, str]]
EXPECT_MARKER = r"#\s*expect:\s*(FSD\d{3})"  # compiled on first use (by `re`'s cache): only the tests read it


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class Example:
    """Source of one or more files; a plain string is the single file `example.py`."""

    __slots__ = ("source",)

    def __init__(self, source: Sources):
        self.source = source

    def files(self) -> Dict[str, str]:
        if isinstance(self.source, str):
            return {"example.py": textwrap.dedent(self.source)}
        return {path: textwrap.dedent(text) for path, text in self.source.items()}

    def expected(self) -> Tuple[Tuple[str, int, str], ...]:
        """(path, line, code) of each `# expect: FSDnnn` marker."""
        found = []
        for path, text in self.files().items():
            for number, line in enumerate(text.splitlines(), start=1):
                found.extend((path, number, code) for code in re.findall(EXPECT_MARKER, line))
        return tuple(sorted(found))


class Valid(Example):
    """Code the rule must accept."""


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class Invalid(Example):
    """Code the rule must reject, at each line marked `# expect: FSDnnn` and nowhere else.

    `fixed` is the code once every fix of its findings is applied (`--fix --unsafe-fixes`): the
    text of `example.py`, or the changed files by path. None: the findings carry no fix. The tests
    apply the fixes, compare, parse the result and lint it again (the fixed findings must be gone)."""

    __slots__ = ("fixed",)

    def __init__(self, source: Sources, fixed: Optional[Sources] = None):
        super().__init__(source)
        self.fixed = fixed

    def fixed_files(self) -> Dict[str, str]:
        """Every file of the example after its fixes (the unchanged ones as they are)."""
        files = self.files()
        if isinstance(self.fixed, str):
            return {**files, "example.py": textwrap.dedent(self.fixed)}
        return {**files, **{path: textwrap.dedent(text) for path, text in (self.fixed or {}).items()}}


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class Option:
    """A setting a rule declares in `OPTIONS`: names a project adds to the rule's built-in list
    (its own optimizer wrapper, its own framework call), set in `[tool.fsdp-lint.rules.CODE]`."""

    __slots__ = ("name", "help", "builtin")

    def __init__(self, name: str, help: str, builtin: FrozenSet[str] = frozenset()):
        self.name = name
        self.help = help
        self.builtin = builtin


@dataclass(frozen=True)
class RuleSetting:
    """The value of one `Option` of one rule for a run (hashable, so it can key a cache)."""

    code: str
    option: str
    values: Tuple[str, ...]


class ScreenedFile:
    """A file a rule's `may_fire_in` judges: its bytes, and its stdlib syntax tree parsed on first
    use (once for all the rules that ask), so a rule that can answer from the bytes parses nothing."""

    def __init__(self, data: bytes):
        self.data = data

    @functools.cached_property
    def module(self) -> ast.Module:
        return ast.parse(self.data)


# A place a finding refers to besides its own line, and what happens there: the engine renders it
# as `path:line` in the message and as a related location (SARIF, the editor).
RelatedNode = Tuple[nodes.NodeNG, str]
Reporter = Callable[["Rule", nodes.NodeNG, str, Optional[str], Optional[Fix], Sequence[RelatedNode], Optional[Obj]], None]


class Rule(Contract, CallListener):
    """Base class: subclasses override `on_call` and/or `on_function_end` and call `report`."""

    message: ClassVar[str]
    help: ClassVar[str]
    VALID: ClassVar[Sequence[Valid]] = ()
    INVALID: ClassVar[Sequence[Invalid]] = ()
    OPTIONS: ClassVar[Sequence[Option]] = ()
    # Names that make the byte scan keep a file for this rule even when nothing in it is sharded
    # (`fsdp_lint.engine.prefilter`): for rules that fire on a call itself, not on a sharded model.
    SCAN_NAMES: ClassVar[FrozenSet[str]] = frozenset()
    # Whether a finding's `subject` stands for all the object holds (a state of every parameter
    # under it), so that one about a part of it in the code a call runs is the same mistake
    # (`fsdp_lint.engine.explained_findings`); else it is about the object alone (its own unit).
    SUBJECT_HOLDS_PARTS: ClassVar[bool] = False

    @classmethod
    def may_fire_in(cls, file: ScreenedFile) -> bool:
        """For a file kept only because it mentions one of `SCAN_NAMES`: whether this rule could
        fire in it at all, judged from its bytes and stdlib syntax tree. False lets the engine skip the
        file's astroid parse and analysis, the bulk of a cold run on a library that mentions the
        names everywhere (DCP's own modules), so the answer must over-approximate: a file where
        the rule would fire must never get False."""
        return True

    def __init__(self, reporter: Reporter):
        self._reporter = reporter
        self.configure(())

    def configure(self, settings: Iterable[RuleSetting]) -> "Rule":
        """Take this run's values of the rule's `OPTIONS` (the engine calls it once per file)."""
        configured = {s.option: s.values for s in settings if s.code == self.code}
        self._options = {o.name: o.builtin | frozenset(configured.get(o.name, ())) for o in self.OPTIONS}
        return self

    def option(self, name: str) -> FrozenSet[str]:
        """The built-in names of option `name` plus those the project configured."""
        return self._options[name]

    def report(
        self, node: nodes.NodeNG, message: Optional[str] = None, *, help: Optional[str] = None, fix: Optional[Fix] = None,
        related: Sequence[RelatedNode] = (), subject: Optional[Obj] = None,
    ) -> None:
        """`subject`: the object the finding is about, where it is one. A finding at a call whose
        called code has its own finding of the rule about that object is then no second finding:
        one mistake, one report, where it happens (`fsdp_lint.engine.explained_findings`)."""
        self._reporter(self, node, message or self.message, help or self.help, fix, related, subject)

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        pass

    def on_function_end(self, flow: Flow) -> None:
        pass
