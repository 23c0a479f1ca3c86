"""One run of the static linter: read and parse each file once, compute the tree's facts once, run
every selected rule over every scope, then drop suppressed findings.

Nothing here knows a particular rule; nothing here imports torch or the linted code.
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Type

from astroid import nodes

from fsdp_lint import noqa
from fsdp_lint.analysis.flow import CallListener, Flow
from fsdp_lint.analysis.project import Project, scopes_of
from fsdp_lint.files import discover, module_name
from fsdp_lint.registry import all_rules
from fsdp_lint.rule import Rule, RuleSetting
from fsdp_lint.selection import Selection
from fsdp_lint.source import ParsedFile, character_column, decode, parse, read_bytes, unanalysable
from fsdp_lint.violation import Edit, Violation

BUG_TRACKER = "https://github.com/fsdp-lint/fsdp-lint/issues"


@dataclass(frozen=True)
class LintOptions:
    selection: Selection = Selection()
    exclude: Sequence[str] = ()
    respect_gitignore: bool = True
    rule_settings: Tuple[RuleSetting, ...] = ()  # `[tool.fsdp-lint.rules.CODE]` option values
    noqa: bool = True  # False where the front end applies `# noqa` itself (flake8)


@dataclass(frozen=True)
class InternalError:
    """A crash of fsdp-lint itself on one file: reported, never fatal to the rest of the run."""

    path: str
    component: str
    error: str
    trace: str

    def describe(self) -> str:
        return (
            f"{self.path}: internal error in {self.component}: {self.error}\n"
            f"  The other rules and files were still checked. This is a bug in fsdp-lint: please report it "
            f"at {BUG_TRACKER} with this message and, if you can, the file."
        )


@dataclass
class LintResult:
    violations: List[Violation] = field(default_factory=list)
    internal_errors: List[InternalError] = field(default_factory=list)
    files: int = 0


def lint_paths(paths: Sequence[str], options: LintOptions = LintOptions()) -> LintResult:
    """Lint files and directories. A path that does not exist raises FileNotFoundError."""
    texts: Dict[str, str] = {}
    failures: List[Violation] = []
    real_paths: Dict[str, str] = {}
    for found in discover(paths, options.exclude, options.respect_gitignore):
        data = read_bytes(found.path, found.path)
        text = data if isinstance(data, Violation) else decode(data, found.path)
        if isinstance(text, Violation):
            failures.append(text)
        else:
            texts[found.path] = text
            real_paths[found.path] = found.path
    result = lint_sources(texts, options, is_package_dir=_package_dir_on_disk)
    result.violations = sorted(set(result.violations + [v for v in failures if options.selection.enabled(v.code, v.path)]))
    result.files += len(failures)
    return result


def _package_dir_on_disk(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "__init__.py"))


def lint_sources(
    sources: Mapping[str, str],
    options: LintOptions = LintOptions(),
    is_package_dir: Optional[Callable[[str], bool]] = None,
) -> LintResult:
    """Lint decoded sources keyed by their display path (the in-memory entry point)."""
    if is_package_dir is None:
        in_memory = {os.path.dirname(os.path.normpath(p)) for p in sources if os.path.basename(p) == "__init__.py"}
        is_package_dir = in_memory.__contains__
    result = LintResult(files=len(sources))
    parsed: List[ParsedFile] = []
    names = _module_names(sources, is_package_dir)
    for display, text in sources.items():
        tree = parse(text, names[display], os.path.abspath(display), display)
        if isinstance(tree, Violation):
            result.violations.append(tree)
        else:
            parsed.append(ParsedFile(display, text, tree))
    rule_classes = [cls for code, cls in all_rules().items() if options.selection.enabled(code)]
    project = Project([f.tree for f in parsed])
    for file in parsed:
        _collect_facts(project, file, result)
    for file in parsed:
        _run_rules(project, file, rule_classes, result, options)
    result.violations = sorted(set(v for v in result.violations if options.selection.enabled(v.code, v.path)))
    return result


def _module_names(sources: Mapping[str, str], is_package_dir: Callable[[str], bool]) -> Dict[str, str]:
    """Dotted names; scripts that share a name (many `train.py`) get their directory path instead."""
    names = {path: module_name(path, is_package_dir) for path in sources}
    counts: Dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    for path, name in names.items():
        if counts[name] > 1:
            stem = os.path.splitext(os.path.normpath(path))[0].lstrip("./" + os.sep)
            names[path] = stem.replace(os.sep, ".").replace("/", ".")
    return names


def _collect_facts(project: Project, file: ParsedFile, result: LintResult) -> None:
    for scope in scopes_of(file.tree):
        try:
            if isinstance(scope, nodes.FunctionDef):
                project.summary(scope)
            else:
                project.record(Flow(project, scope).run())
        except RecursionError:
            result.violations.append(unanalysable(file.display, "nesting too deep to analyse", scope.lineno or 1))
            return
        except Exception as error:  # one file's failure must not stop the run
            result.internal_errors.append(_internal(file.display, "the fact analysis", error))
            return


class _RuleRunner(CallListener):
    """Dispatches flow events to the rules of one file, isolating each rule's failures."""

    def __init__(self, file: ParsedFile, rule_classes: Sequence[Type[Rule]], result: LintResult, settings: Sequence[RuleSetting]):
        self.file = file
        self.result = result
        self.found: List[Violation] = []
        self.rules = [cls(self._report).configure(settings) for cls in rule_classes]
        self.call_rules = [r for r in self.rules if type(r).on_call is not Rule.on_call]
        self.end_rules = [r for r in self.rules if type(r).on_function_end is not Rule.on_function_end]

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        for rule in list(self.call_rules):
            try:
                rule.on_call(node, flow)
            except Exception as error:
                self._fail(rule, error)

    def on_function_end(self, flow: Flow) -> None:
        for rule in list(self.end_rules):
            try:
                rule.on_function_end(flow)
            except Exception as error:
                self._fail(rule, error)

    def _fail(self, rule: Rule, error: Exception) -> None:
        self.result.internal_errors.append(_internal(self.file.display, f"rule {rule.code} ({rule.name})", error))
        for active in (self.call_rules, self.end_rules):
            if rule in active:
                active.remove(rule)

    def _report(self, rule: Rule, node: nodes.NodeNG, message: str, help: Optional[str], fix: Optional[Edit]) -> None:
        line = node.lineno or 1
        column = character_column(self.file.line(line), node.col_offset or 0) + 1
        end_line = getattr(node, "end_lineno", None)
        end_offset = getattr(node, "end_col_offset", None)
        end_column = character_column(self.file.line(end_line), end_offset) + 1 if end_line and end_offset is not None else None
        if fix is not None:
            fix = Edit(
                fix.line, character_column(self.file.line(fix.line), fix.column) + 1,
                fix.end_line, character_column(self.file.line(fix.end_line), fix.end_column) + 1, fix.text,
            )
        self.found.append(
            Violation(self.file.display, line, column, rule.code, rule.name, message, rule.severity, end_line, end_column, help, fix)
        )


def _run_rules(project: Project, file: ParsedFile, rule_classes: Sequence[Type[Rule]], result: LintResult, options: LintOptions) -> None:
    if not rule_classes:
        return
    runner = _RuleRunner(file, rule_classes, result, options.rule_settings)
    for scope in scopes_of(file.tree):
        try:
            Flow(project, scope, runner).run()
        except RecursionError:
            result.violations.append(unanalysable(file.display, "nesting too deep to analyse", scope.lineno or 1))
            return
        except Exception as error:
            result.internal_errors.append(_internal(file.display, "the flow analysis", error))
            return
    if runner.found:
        table = noqa.suppressions(file.text) if options.noqa else {}
        result.violations.extend(v for v in runner.found if not noqa.is_suppressed(v.code, v.line, table))


def _internal(path: str, component: str, error: BaseException) -> InternalError:
    return InternalError(path, component, f"{type(error).__name__}: {error}", "".join(traceback.format_exception(error)))
