"""The analysis of one tree: parse the files that can matter, compute the tree's facts, run every
selected rule over every scope of every analysed file.

Files the byte scan (`fsdp_lint.engine.prefilter`) leaves out are parsed only when the analysis needs
them: to resolve a name that their imports may re-export, or to enter their code because a call
into them receives or returns something that may hold shards (a helper given a sharded model), so
the findings are those of parsing everything; `prefilter=False` parses and enters everything,
which the equivalence tests compare against.
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Type

from astroid import nodes

from fsdp_lint.engine import noqa, prefilter, syntax_check
from fsdp_lint.analysis.declared_apis import DeclaredApis
from fsdp_lint.analysis.flow import CallListener, Flow
from fsdp_lint.analysis.project import Project, ResolutionMemo
from fsdp_lint.engine.rule import Rule, RuleSetting, ScreenedFile
from fsdp_lint.engine.source import ParsedFile, character_column, parse, unanalysable
from fsdp_lint.violation import Edit, Violation

BUG_TRACKER = "https://github.com/fsdp-lint/fsdp-lint/issues"


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
class Findings:
    violations: List[Violation] = field(default_factory=list)
    internal_errors: List[InternalError] = field(default_factory=list)


@dataclass(frozen=True)
class RuleConfig:
    """What the rule pass needs besides the facts; plain data, so worker processes can take it."""

    rule_classes: Tuple[Type[Rule], ...]
    settings: Tuple[RuleSetting, ...]
    noqa: bool
    apis: DeclaredApis = DeclaredApis()  # `[tool.fsdp-lint.analysis]`: the facts' known APIs

    @property
    def sharding_names(self) -> FrozenSet[str]:
        """What the byte scan treats as `fully_shard`: it, and the declared sharding functions."""
        return prefilter.SHARDING_NAMES | self.apis.scan_names


@dataclass
class SourceTree:
    """The decodable files of a run: text by display path, module names, and the module index."""

    texts: Mapping[str, str]
    names: Mapping[str, str]
    data: Mapping[str, bytes] = field(default_factory=dict)
    by_module: Dict[str, str] = field(default_factory=dict)
    on_disk: bool = False  # the display paths are the files' paths (their bytecode caches can be read)
    scans: Dict[str, prefilter.FileScan] = field(default_factory=dict)  # each file's byte scan (`scanner`)

    def __post_init__(self) -> None:
        if not self.data:
            self.data = {path: text.encode("utf-8", "surrogatepass") for path, text in self.texts.items()}
        for path in sorted(self.texts):
            self.by_module.setdefault(self.names[path], path)


@dataclass
class TreeAnalysis:
    """The outcome of analysing a tree, with what it depended on (for the cache)."""

    findings: Findings
    parsed: FrozenSet[str]  # the files whose contents it read (parsed, or scanned for their imports)
    resolved: Dict[str, Optional[str]]  # module names the analysis looked up -> path, or None


def mentioned_names(rule_classes: Iterable[Type[Rule]]) -> FrozenSet[str]:
    """The names that rules which fire without a sharded model declare in `SCAN_NAMES`: a file
    that mentions one is parsed (`fsdp_lint.engine.prefilter`) if its rules' screens let it through."""
    return frozenset(name for rule in rule_classes for name in rule.SCAN_NAMES)


def scanner(tree: SourceTree, config: RuleConfig) -> Callable[[str], Tuple[prefilter.FileScan, Tuple[InternalError, ...]]]:
    """The byte scan of one file of `tree` for `config`'s rules: plain data from one file's bytes,
    so the engine can run it on any core (`parallel.fork_map`) and fill `tree.scans`; with the
    crashes it survived. A file whose scan crashes is kept as if it sharded (everything it defines
    counts for its importers), so a bug here costs time and an internal error, not findings."""
    mentioned = mentioned_names(config.rule_classes)

    def scan(path: str) -> Tuple[prefilter.FileScan, Tuple[InternalError, ...]]:
        errors: List[InternalError] = []

        def screen(data: bytes, names: FrozenSet[str]) -> bool:
            return _may_fire(config.rule_classes, ScreenedFile(data), names, path, errors)

        try:
            found = prefilter.scan_file(path, tree.data[path], tree.names[path], config.sharding_names, mentioned, screen)
        except Exception as error:  # one file's failure must not stop the run
            errors.append(internal_error(path, "the byte scan", error))
            found = prefilter.FileScan((), frozenset(), uses_sharding_name=True, mentioned=True)
        return found, tuple(errors)

    return scan


def _may_fire(rule_classes: Iterable[Type[Rule]], file: ScreenedFile, mentioned: FrozenSet[str], path: str, errors: List[InternalError]) -> bool:
    """Whether a rule whose `SCAN_NAMES` the file mentions could fire in it (`Rule.may_fire_in`).
    A file the stdlib parser rejects is kept: its FSD001 comes from the analysis. So is one whose
    screen crashes."""
    for rule in rule_classes:
        if rule.SCAN_NAMES & mentioned:
            try:
                if rule.may_fire_in(file):
                    return True
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return True
            except Exception as error:
                errors.append(internal_error(path, f"the screen of rule {rule.code}", error))
                return True
    return False


def relevant_paths(tree: SourceTree, config: RuleConfig, explicit: Iterable[str] = ()) -> FrozenSet[str]:
    """The files the byte scan keeps (from `tree.scans`), and those named on the command line."""
    scanned = prefilter.relevant_files(tree.data, tree.names, tree.scans, config.sharding_names)
    return frozenset(explicit) | frozenset(scanned)


def analyse_tree(
    tree: SourceTree,
    config: RuleConfig,
    relevant: FrozenSet[str],
    use_prefilter: bool = True,
    run_rules: Optional[Callable[[Project, Sequence[ParsedFile], RuleConfig], Findings]] = None,
) -> TreeAnalysis:
    """Parse what can matter, collect the facts to a fixpoint, then run the rules.

    The facts are collected over the relevant files, entering the code of their modules only;
    calls into other modules of the tree are deferred (`Project`). Each round may then grow
    what is analysed, and the facts start again until nothing grows:

    - the facts can show that a module-level object of some module is sharded; any file that
      imports the function returning it can then misuse it, so the scan runs again with that
      module's names as sharding names, and the new files join the analysis;
    - a module that owns an object which may hold shards (a helper given a sharded model) is
      analysed like a relevant file;
    - a deferred call that receives or returns something that may hold shards has its module
      entered (parsed, its summaries applied) in the next round.
    """
    state = _State(tree)
    relevant = set(relevant) if use_prefilter else set(tree.texts)
    demanded: Set[str] = set()
    project: Optional[Project] = None
    collected: Set[str] = set()
    while True:
        for path in sorted(relevant):
            state.parse(path)
        analysed = sorted(relevant & set(state.parsed))
        entered = frozenset(tree.names[path] for path in analysed) | demanded if use_prefilter else None
        if project is None or entered != project.entered:
            # Newly entered code changes the summaries already applied: start the facts again.
            trees = [file.tree for file in state.parsed.values()]
            project = Project(trees, load=state.load, index=state, entered=entered, apis=config.apis, memo=state.memo)
            findings = Findings()
            collected = set()
        for path in analysed:
            if path not in collected:  # the same entered code: the facts so far stand, add the new files'
                collected.add(path)
                _collect_facts(project, state.parsed[path], findings)
        grown = set(relevant)
        exporting = _paths_of(tree, project.modules_holding_shards(globals_only=True))
        if exporting - state.exporting:
            state.exporting |= exporting
            grown |= prefilter.relevant_files(tree.data, tree.names, tree.scans, config.sharding_names, state.exporting)
        grown |= _paths_of(tree, project.modules_holding_shards()) & set(state.parsed)
        more = project.demanded_modules() - demanded if use_prefilter else set()
        if grown == relevant and not more:
            break
        relevant, demanded = grown, demanded | more
    files = [state.parsed[path] for path in analysed]
    rule_findings = (run_rules or run_rules_on)(project, files, config)
    findings.violations.extend(rule_findings.violations)
    findings.internal_errors.extend(rule_findings.internal_errors)
    findings.violations.extend(state.broken[path] for path in sorted(state.broken))
    read = frozenset(state.parsed) | frozenset(state.broken) | frozenset(state.scanned)
    return TreeAnalysis(findings, read, dict(state.resolved))


def _paths_of(tree: SourceTree, modules: Iterable[str]) -> Set[str]:
    return {tree.by_module[module] for module in modules if module in tree.by_module}


class _State:
    """The files parsed so far, and what the analysis asked about the tree (for the cache)."""

    def __init__(self, tree: SourceTree):
        self.tree = tree
        self.parsed: Dict[str, ParsedFile] = {}
        self.broken: Dict[str, Violation] = {}
        self.resolved: Dict[str, Optional[str]] = {}
        self.exporting: Set[str] = set()
        self.scanned: Dict[str, Optional[FrozenSet[str]]] = {}
        self.compiled: Dict[str, bool] = {}
        self.memo = ResolutionMemo()  # shared by the projects of every round

    def parse(self, path: str) -> Optional[ParsedFile]:
        if path in self.parsed or path in self.broken:
            return self.parsed.get(path)
        text = self.tree.texts[path]
        built = parse(text, self.tree.names[path], os.path.abspath(path), path)
        if isinstance(built, Violation):
            self.broken[path] = built
            return None
        self.parsed[path] = ParsedFile(path, text, built)
        return self.parsed[path]

    def load(self, module: str) -> Optional[nodes.Module]:
        path = self.tree.by_module.get(module)
        self.resolved[module] = path
        parsed = self.parse(path) if path is not None else None
        return parsed.tree if parsed is not None else None

    def in_tree(self, name: str) -> bool:
        path = self.tree.by_module.get(name)
        self.resolved[name] = path
        return path is not None

    def import_bound(self, name: str) -> Optional[FrozenSet[str]]:
        path = self.tree.by_module[name]
        if path not in self.scanned:
            self.scanned[path] = prefilter.import_bound_names(self.tree.data[path])
        return self.scanned[path]

    def compiles(self, name: str) -> Optional[bool]:
        path = self.tree.by_module[name]
        if path in self.parsed or path in self.broken:
            return path in self.parsed
        if path not in self.compiled:
            on_disk = self.tree.on_disk and syntax_check.compiled_by_python(path, self.tree.data[path])
            self.compiled[path] = on_disk or syntax_check.compiles(self.tree.texts[path], path)
        return True if self.compiled[path] else None


def _collect_facts(project: Project, file: ParsedFile, findings: Findings) -> None:
    for scope in file.scopes:
        try:
            if isinstance(scope, nodes.FunctionDef):
                project.summary(scope)
            else:
                project.record(Flow(project, scope).run())
        except RecursionError:
            findings.violations.append(unanalysable(file.display, "nesting too deep to analyse", scope.lineno or 1))
            return
        except Exception as error:  # one file's failure must not stop the run
            findings.internal_errors.append(internal_error(file.display, "the fact analysis", error))
            return


def run_rules_on(project: Project, files: Sequence[ParsedFile], config: RuleConfig) -> Findings:
    findings = Findings()
    for file in files:
        _run_rules(project, file, config, findings)
    return findings


class _RuleRunner(CallListener):
    """Dispatches flow events to the rules of one file, isolating each rule's failures."""

    def __init__(self, file: ParsedFile, config: RuleConfig, findings: Findings):
        self.file = file
        self.findings = findings
        self.found: List[Violation] = []
        self.rules = [cls(self._report).configure(config.settings) for cls in config.rule_classes]
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
        self.findings.internal_errors.append(internal_error(self.file.display, f"rule {rule.code} ({rule.name})", error))
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


def _run_rules(project: Project, file: ParsedFile, config: RuleConfig, findings: Findings) -> None:
    if not config.rule_classes:
        return
    runner = _RuleRunner(file, config, findings)
    for scope in file.scopes:
        try:
            Flow(project, scope, runner).run()
        except RecursionError:
            findings.violations.append(unanalysable(file.display, "nesting too deep to analyse", scope.lineno or 1))
            return
        except Exception as error:
            findings.internal_errors.append(internal_error(file.display, "the flow analysis", error))
            return
    if runner.found:
        table = noqa.suppressions(file.text) if config.noqa else {}
        findings.violations.extend(v for v in runner.found if not noqa.is_suppressed(v.code, v.line, table))


def internal_error(path: str, component: str, error: BaseException) -> InternalError:
    return InternalError(path, component, f"{type(error).__name__}: {error}", "".join(traceback.format_exception(error)))
