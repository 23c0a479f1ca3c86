"""The analysis of one tree: parse the files that can matter, compute the tree's facts, run every
selected rule over every scope of every analysed file.

Files the byte scan (`fsdp_lint.engine.prefilter`) leaves out are parsed only when the analysis needs
them: to resolve a name that their imports may re-export, or to enter their code because a call
into them receives or returns something that may hold shards (a helper given a sharded model), so
the findings are those of parsing everything; `prefilter=False` parses and enters everything,
which the equivalence tests compare against.
"""

from __future__ import annotations

import ast
import functools
import os
import traceback
from typing import Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Type

from astroid import nodes

from fsdp_lint.engine import decorator_users, noqa, prefilter, syntax_check
from fsdp_lint.engine.explained_findings import CallTree, WalkKey
from fsdp_lint.analysis import environment, imported_code, registrations
from fsdp_lint.analysis.declared_apis import DeclaredApis
from fsdp_lint.analysis.context import UNKNOWN_CONTEXT, Context, CreatedInstances, Origin
from fsdp_lint.analysis.flow import MAX_RULE_DEPTH, Flow, scope_key
from fsdp_lint.analysis.project import Project, ResolutionMemo
from fsdp_lint.analysis.values import Obj
from fsdp_lint.engine.rule import RelatedNode, Rule, RuleSetting, ScreenedFile
from fsdp_lint.engine.rule_listener import RuleListener
from fsdp_lint.engine.source import ParsedFile, character_column, parse, unanalysable
from fsdp_lint.violation import Edit, Fix, Note, Violation

BUG_TRACKER = "https://github.com/fsdp-lint/fsdp-lint/issues"


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class InternalError:
    """A crash of fsdp-lint itself on one file: reported, never fatal to the rest of the run."""

    __slots__ = ("path", "component", "error", "trace")

    def __init__(self, path: str, component: str, error: str, trace: str):
        self.path = path
        self.component = component
        self.error = error
        self.trace = trace

    def describe(self) -> str:
        return (
            f"{self.path}: internal error in {self.component}: {self.error}\n"
            f"  The other rules and files were still checked. This is a bug in fsdp-lint: please report it "
            f"at {BUG_TRACKER} with this message and, if you can, the file."
        )


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class Findings:
    __slots__ = ("violations", "internal_errors", "looked_up")

    def __init__(self) -> None:
        self.violations: List[Violation] = []
        self.internal_errors: List[InternalError] = []
        self.looked_up: Dict[str, Optional[str]] = {}  # by the rule pass: module -> path (for the cache)


# What the rule pass asked of the tree: module names and the file each led to, or None.
Lookups = Callable[[], Dict[str, Optional[str]]]


class ParseDuringRulePass(AssertionError):
    """The rule pass needed a module parsed: what rules read of other modules must be collected
    before they run (`fsdp_lint.analysis.imported_code`), where the cache sees every file read."""


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class RuleConfig:
    """What the rule pass needs besides the facts; plain data, so worker processes can take it."""

    __slots__ = ("rule_classes", "settings", "noqa", "apis")

    def __init__(self, rule_classes: Tuple[Type[Rule], ...], settings: Tuple[RuleSetting, ...], noqa: bool, apis: DeclaredApis = DeclaredApis()):
        self.rule_classes = rule_classes
        self.settings = settings
        self.noqa = noqa
        self.apis = apis  # `[tool.fsdp-lint.analysis]`: the facts' known APIs

    @property
    def sharding_names(self) -> FrozenSet[str]:
        """What the byte scan treats as `fully_shard`: it, and the declared sharding functions."""
        return prefilter.SHARDING_NAMES | self.apis.scan_names


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class SourceTree:
    """The decodable files of a run: text by display path, module names, and the module index."""

    def __init__(
        self, texts: Mapping[str, str], names: Mapping[str, str], data: Optional[Mapping[str, bytes]] = None,
        on_disk: bool = False, target_version: Optional[Tuple[int, int]] = None, syntax: Optional[Mapping[str, ast.Module]] = None,
    ):
        self.texts = texts
        self.names = names
        self.data: Mapping[str, bytes] = data or {path: text.encode("utf-8", "surrogatepass") for path, text in texts.items()}
        self.by_module: Dict[str, str] = {}
        self.on_disk = on_disk  # the display paths are the files' paths (their bytecode caches can be read)
        self.scans: Dict[str, prefilter.FileScan] = {}  # each file's byte scan (`scanner`)
        self.target_version = target_version  # the project's Python, for `source.parse`
        self.syntax: Mapping[str, ast.Module] = syntax or {}  # the caller's syntax trees of texts, by path (flake8's)
        for path in sorted(self.texts):
            self.by_module.setdefault(self.names[path], path)

    @functools.cached_property
    def environment_written(self) -> FrozenSet[str]:
        """The variables of the process environment some file writes: read from every file's
        bytes, parsed or not, so an input of the analysis that no parsed file vouches for."""
        return environment.written(self.data.values())


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class TreeAnalysis:
    """The outcome of analysing a tree, with what it depended on (for the cache)."""

    def __init__(
        self, findings: Findings, parsed: FrozenSet[str], resolved: Dict[str, Optional[str]], environment_written: FrozenSet[str],
        decorators: Optional[Dict[str, Dict[str, FrozenSet[str]]]] = None,
    ):
        self.findings = findings
        self.parsed = parsed  # the files whose contents it read (parsed, or scanned for their imports)
        self.resolved = resolved  # module names the analysis looked up -> path, or None
        self.environment_written = environment_written  # `SourceTree.environment_written` of the tree analysed
        self.decorators = decorators or {}  # module -> `decorator_users` of the tree analysed, for the modules the analysis asked about


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
    run_rules: Optional[Callable[[Project, Sequence[ParsedFile], RuleConfig, Mapping[str, ParsedFile], Lookups], Findings]] = None,
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
    findings = Findings()
    while True:
        for path in sorted(relevant):
            state.parse(path)
        analysed = sorted(relevant & set(state.parsed))
        entered = frozenset(tree.names[path] for path in analysed) | demanded if use_prefilter else None
        if project is None:
            trees = [file.tree for file in state.parsed.values()]
            project = Project(
                trees, load=state.load, index=state, entered=entered, apis=config.apis, memo=state.memo,
                instances=state.instances, environment_written=tree.environment_written,
            )
            if config.rule_classes:  # the rules hear every walk of the facts: the rule pass takes those it would repeat
                project.walk_records.listen = lambda: RuleListener(config.rule_classes, config.settings)
        elif entered != project.entered:
            # Newly entered code changes the summaries that deferred calls into it: walk again.
            assert entered is not None
            project.enter(entered)
            findings = Findings()
            collected = set()
        fresh = [path for path in analysed if path not in collected]
        collected.update(fresh)  # the same entered code: the facts so far stand, add the new files'
        _collect_facts(project, [state.parsed[path] for path in fresh], findings)
        grown = set(relevant)
        exporting = _paths_of(tree, project.modules_holding_shards(globals_only=True))
        registered = _registered(tree, project, [state.parsed[path] for path in fresh]) if use_prefilter else set()
        if exporting - state.exporting or registered - state.registered:
            state.exporting |= exporting
            state.registered |= registered
            grown |= prefilter.relevant_files(tree.data, tree.names, tree.scans, config.sharding_names, state.exporting, state.registered)
        grown |= _paths_of(tree, project.modules_holding_shards()) & set(state.parsed)
        more = project.demanded_modules() - demanded if use_prefilter else set()
        if grown == relevant and not more:
            break
        relevant, demanded = grown, demanded | more
    files = [state.parsed[path] for path in analysed]
    sources = {file.tree.name: file for file in state.parsed.values()}
    project.imported = imported_code.collect(project, [file.tree for file in sources.values()], [file.tree for file in files])
    state.seal()
    rule_findings = (run_rules or run_rules_on)(project, files, config, sources, state.looked_up_since_seal)
    findings.violations.extend(_once(rule_findings.violations))
    findings.internal_errors.extend(rule_findings.internal_errors)
    findings.violations.extend(state.broken[path] for path in sorted(state.broken))
    state.resolved.update(rule_findings.looked_up)
    # A file the rule pass found by name may have been read (its imports scanned) in a worker.
    looked_at = frozenset(path for path in rule_findings.looked_up.values() if path is not None)
    read = frozenset(state.parsed) | frozenset(state.broken) | frozenset(state.scanned) | looked_at
    return TreeAnalysis(findings, read, dict(state.resolved), tree.environment_written, dict(state.decorators))


def users_of(tree: SourceTree, module: str, imports: Optional[Mapping[str, List[Tuple[str, prefilter.Imported]]]] = None) -> Dict[str, FrozenSet[str]]:
    """The files of `tree` that apply names of `module` as decorators, with those names
    (`decorator_users`; `imports`: the tree's `prefilter.import_index`, made here if not given)."""
    index = imports if imports is not None else prefilter.import_index(tree.scans, tree.scans)
    return decorator_users.decorators_from(module, tree.by_module.get(module), index, tree.data)


def _registered(tree: SourceTree, project: Project, files: Sequence[ParsedFile]) -> Set[Tuple[str, str, str, str]]:
    """(path, class, registry's path, registry's name) for each module-level class of `files` that
    a decorator registers into a dict held by a global or class of another file of the tree
    (`prefilter.relevant_files`'s `registered`)."""
    found: Set[Tuple[str, str, str, str]] = set()
    for file in files:
        for registration in registrations.of_module(project, file.tree):
            if not isinstance(registration.cls.parent, nodes.Module):
                continue
            parts = registration.registry.split(".")
            for end in range(len(parts) - 1, 0, -1):
                path = tree.by_module.get(".".join(parts[:end]))
                if path is not None:
                    if path != file.display:
                        found.add((file.display, registration.cls.name, path, parts[end]))
                    break
    return found


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
        self.registered: Set[Tuple[str, str, str, str]] = set()  # `_registered` of the files analysed so far
        self.scanned: Dict[str, Optional[FrozenSet[str]]] = {}
        self.compiled: Dict[str, bool] = {}
        self.memo = ResolutionMemo()  # shared by the projects of every round
        self.instances = CreatedInstances()  # likewise
        self.sealed: Optional[Dict[str, Optional[str]]] = None  # in the rule pass: what it asked
        self.decorators: Dict[str, Dict[str, FrozenSet[str]]] = {}  # `decorator_users` by module, with paths
        self._imports: Optional[Dict[str, List[Tuple[str, prefilter.Imported]]]] = None

    def seal(self) -> None:
        """The facts are complete: from now on the tree can be asked only what needs no parse
        (a lookup by name, a file's imports), and each new question is noted with the file it
        led to, for `looked_up_since_seal`."""
        self.sealed = {}

    def looked_up_since_seal(self) -> Dict[str, Optional[str]]:
        return dict(self.sealed or {})

    def parse(self, path: str) -> Optional[ParsedFile]:
        if path in self.parsed or path in self.broken:
            return self.parsed.get(path)
        text = self.tree.texts[path]
        built = parse(text, self.tree.names[path], os.path.abspath(path), path, self.tree.target_version, self.tree.data.get(path), self.tree.syntax.get(path))
        if isinstance(built, Violation):
            self.broken[path] = built
            return None
        self.parsed[path] = ParsedFile(path, built, self.tree.texts)
        return self.parsed[path]

    def load(self, module: str) -> Optional[nodes.Module]:
        path = self.tree.by_module.get(module)
        if self.sealed is not None and path is not None and path not in self.parsed and path not in self.broken:
            raise ParseDuringRulePass(f"module {module} ({path}) was not parsed before the rule pass")
        self._note(module, path)
        parsed = self.parse(path) if path is not None else None
        return parsed.tree if parsed is not None else None

    def in_tree(self, name: str) -> bool:
        path = self.tree.by_module.get(name)
        self._note(name, path)
        return path is not None

    def _note(self, name: str, path: Optional[str]) -> None:
        if self.sealed is not None and name not in self.resolved:
            self.sealed[name] = path
        self.resolved[name] = path

    def import_bound(self, name: str) -> Optional[FrozenSet[str]]:
        path = self.tree.by_module[name]
        if path not in self.scanned:
            if self.sealed is not None:
                self.sealed[name] = path
            self.scanned[path] = prefilter.import_bound_names(self.tree.data[path])
        return self.scanned[path]

    def decorator_users(self, name: str) -> Mapping[str, FrozenSet[str]]:
        """`ModuleIndex.decorator_users`; in the rule pass, which parses nothing, those the facts
        parsed (they asked the same questions)."""
        if name not in self.decorators:
            if self._imports is None:
                self._imports = prefilter.import_index(self.tree.scans, self.tree.scans)
            self.decorators[name] = users_of(self.tree, name, self._imports)
        return {
            self.tree.names[path]: names for path, names in self.decorators[name].items()
            if self.sealed is None or path in self.parsed
        }

    def compiles(self, name: str) -> Optional[bool]:
        path = self.tree.by_module[name]
        if path in self.parsed or path in self.broken:
            return path in self.parsed
        if path not in self.compiled:
            on_disk = self.tree.on_disk and syntax_check.compiled_by_python(path, self.tree.data[path])
            self.compiled[path] = on_disk or syntax_check.compiles(self.tree.texts[path], path)
        return True if self.compiled[path] else None


def _collect_facts(project: Project, files: Sequence[ParsedFile], findings: Findings) -> None:
    """Walk the top level of every file first (its globals are what a function called from
    outside sees), then every function the top levels do not reach, in the context an unknown
    caller gives it (a function they reach is analysed in the contexts of its calls only: no
    unknown caller is left to imagine), then each class a framework drives as it drives it.
    Summaries are memoised by context and the functions left out are decided before any of
    them is walked, so the order of this walk changes no fact; the rule pass walks again only
    what these walks parsed."""
    broken: Set[str] = set()
    project.expect_top_levels(file.tree.name for file in files)
    for file in files:
        _walk_guarded(file, findings, broken, lambda: project.top_level(file.tree), file.tree)
    reached = frozenset(project.called)
    for file in files:
        for scope in file.scopes[1:]:
            if file.display in broken:
                break
            if scope_key(scope) not in reached:
                _walk_guarded(file, findings, broken, lambda: project.summary(scope, *project.entry_context(scope)), scope)
        for cls in file.classes:
            _walk_guarded(file, findings, broken, lambda: project.lifecycle(cls) and project.walk_class(cls), cls)
            for driver in project.inherited_drivers(cls) if file.display not in broken else ():
                _walk_guarded(file, findings, broken, lambda: project.summary(driver, *project.entry_context(driver, cls)), cls)


def _walk_guarded(file: ParsedFile, findings: Findings, broken: Set[str], walk: Callable[[], object], scope: nodes.NodeNG) -> None:
    """One walk; a failure is this file's alone (FSD001 for nesting too deep, else an internal error)."""
    if file.display in broken:
        return
    try:
        walk()
    except RecursionError:
        findings.violations.append(unanalysable(file.display, "nesting too deep to analyse", scope.lineno or 1))
        broken.add(file.display)
    except Exception as error:  # one file's failure must not stop the run
        findings.internal_errors.append(internal_error(file.display, "the fact analysis", error))
        broken.add(file.display)


def run_rules_on(
    project: Project, files: Sequence[ParsedFile], config: RuleConfig, sources: Optional[Mapping[str, ParsedFile]] = None,
    looked_up: Optional[Lookups] = None,
) -> Findings:
    """Walk each file's entry points with the rules listening: its top level and the functions no
    walk calls, each in the context of an unknown caller; every function they call is walked
    again in the context of that call (once per distinct context), wherever it is defined, and
    its findings go to its own file. Where the rules heard a walk of the facts that this walk would
    repeat, what they heard there is taken instead (`Project.replayable`). The findings carry what
    `looked_up` says the walks asked of the tree: a forked worker's record of it ends with the worker."""
    findings = Findings()
    if not config.rule_classes:
        return findings
    sources = sources if sources is not None else {file.tree.name: file for file in files}
    runner = _RuleRunner(project, sources, config, findings)
    for file in files:
        runner.walk_entries(file)
    for file, found in runner.found_by_file():
        table = noqa.suppressions(file.text) if config.noqa else {}
        findings.violations.extend(v for v in found if not noqa.is_suppressed(v.code, v.line, table))
    if looked_up is not None:
        findings.looked_up = looked_up()
    return findings


def _once(violations: List[Violation]) -> List[Violation]:
    """One finding per code and place: a function walked in several contexts, or by several
    processes, reports what it finds once (the first by its message, so the choice does not
    depend on which walk or process found it first)."""
    kept: Dict[Tuple[str, int, int, str], Violation] = {}
    for violation in sorted(violations, key=lambda v: (v.path, v.line, v.column, v.code, v.message)):
        kept.setdefault((violation.path, violation.line, violation.column, violation.code), violation)
    return list(kept.values())


class _RuleRunner:
    """Walks each file's entries with the rules listening, and each function a walk calls in that
    call's context (a worklist: the rule pass's walks never nest); a walk of the facts that this
    walk would repeat (`Project.replayable`) is taken instead of walking again. A rule that crashed
    on a module is skipped there for the rest of the pass."""

    def __init__(self, project: Project, sources: Mapping[str, ParsedFile], config: RuleConfig, findings: Findings):
        self.project = project
        self.sources = sources
        self.config = config
        self.findings = findings
        self.found: Dict[str, List[Violation]] = {}
        self.made: List[Tuple[Violation, WalkKey, nodes.NodeNG, Tuple[Obj, ...]]] = []  # each finding, with its walk, node and subject's names
        self.calls = CallTree()
        self.walked: Set[Tuple[str, Context]] = set()
        self.pending: List[Tuple[nodes.FunctionDef, Context, Dict[str, Origin], Tuple[nodes.NodeNG, ...]]] = []
        self.broken: Set[str] = set()
        self.failed: Set[Tuple[str, str]] = set()  # (rule code, module) where the rule crashed

    def walk_entries(self, file: ParsedFile) -> None:
        for scope in file.scopes:
            if isinstance(scope, nodes.FunctionDef):
                if self.project.is_entry(scope):
                    self._walk(scope, None, {}, (), entry=True)
            else:
                self._walk(scope, None, {}, ())
            while self.pending:
                self._walk(*self.pending.pop(0))
        for cls in file.classes:
            self._walk(cls, None, {}, ())  # walked only if a framework drives it in a documented order
            for driver in self.project.inherited_drivers(cls):
                self._walk(driver, *self.project.entry_context(driver, cls), ())  # `self` an object of `cls`
            while self.pending:
                self._walk(*self.pending.pop(0))

    def _walk(
        self, scope: nodes.NodeNG, context: Optional[Context], origins: Dict[str, Origin], chain: Tuple[nodes.NodeNG, ...],
        entry: bool = False,
    ) -> None:
        file = self.sources.get(scope.root().name)
        if file is None or file.display in self.broken:
            return
        heard: Optional[RuleListener] = None
        walk: WalkKey = (scope_key(scope), context or UNKNOWN_CONTEXT)
        try:
            if isinstance(scope, nodes.ClassDef) and not self.project.lifecycle(scope):
                return
            if entry:
                context, origins = self.project.entry_context(scope)
                walk = (scope_key(scope), context)
            if context is not None:
                if walk in self.walked:
                    return
                self.walked.add(walk)
            heard = self._replayed(scope, context or UNKNOWN_CONTEXT, origins)
            if heard is None:
                heard = RuleListener(self.config.rule_classes, self.config.settings, self.failed)
                Flow(self.project, scope, heard, context or UNKNOWN_CONTEXT, origins, chain).run()
        except RecursionError:
            self._take(heard, origins, chain, walk)
            heard = None
            self.findings.violations.append(unanalysable(file.display, "nesting too deep to analyse", scope.lineno or 1))
            self.broken.add(file.display)
        except Exception as error:
            self._take(heard, origins, chain, walk)
            heard = None
            self.findings.internal_errors.append(internal_error(file.display, "the flow analysis", error))
            self.broken.add(file.display)
        self._take(heard, origins, chain, walk)

    def _replayed(self, scope: nodes.NodeNG, context: Context, origins: Dict[str, Origin]) -> Optional[RuleListener]:
        """What the rules heard in the fact pass's walk of `scope` in `context`, where this walk
        would repeat it and hear the same: the same rules, none of which crashed there or has
        crashed on this module since."""
        record = self.project.replayable(scope, context, origins)
        heard = record.listener if record is not None else None
        if not isinstance(heard, RuleListener) or heard.crashes or heard.configuration != (self.config.rule_classes, self.config.settings):
            return None
        module = scope.root().name
        return None if any(failed == module for _, failed in self.failed) else heard

    def _take(self, heard: Optional[RuleListener], origins: Dict[str, Origin], chain: Tuple[nodes.NodeNG, ...], walk: WalkKey) -> None:
        """A walk's findings, its rules' crashes, and the functions it called, to walk next."""
        if heard is None:
            return
        for rule, node, message, help, fix, places, names in heard.reports:
            self._report(rule, node, message, help, fix, places, origins, walk, names)
            self.calls.found(walk, rule.code, names)
        for rule, error, module in heard.crashes:
            file = self.sources.get(module)
            path = file.display if file is not None else module
            self.findings.internal_errors.append(internal_error(path, f"rule {rule.code} ({rule.name})", error))
        for call, func, context, passed, handed in heard.callees:
            self.calls.called(walk, call, (scope_key(func), context), handed)
            if len(chain) < MAX_RULE_DEPTH and (scope_key(func), context) not in self.walked:
                self.pending.append((func, context, passed, chain + (call,)))

    def found_by_file(self) -> List[Tuple[ParsedFile, List[Violation]]]:
        """The findings of each file, but those at a call that a finding in the code it calls
        explains (`explained_findings`): one mistake, one finding."""
        holding = frozenset(cls.code for cls in self.config.rule_classes if cls.SUBJECT_HOLDS_PARTS)
        explained = {id(v) for v, walk, node, names in self.made if names and self.calls.explained(walk, node, v.code, names, v.code in holding)}
        by_path = {file.display: file for file in self.sources.values()}
        found = ((path, [v for v in violations if id(v) not in explained]) for path, violations in sorted(self.found.items()))
        return [(by_path[path], kept) for path, kept in found if kept]

    def _report(
        self, rule: Rule, node: nodes.NodeNG, message: str, help: Optional[str], fix: Optional[Fix], places: Sequence[RelatedNode],
        origins: Dict[str, Origin], walk: WalkKey, names: Tuple[Obj, ...],
    ) -> None:
        file = self.sources.get(node.root().name)
        if file is None:
            return
        line = node.lineno or 1
        column = character_column(file.line(line), node.col_offset or 0) + 1
        end_line = getattr(node, "end_lineno", None)
        end_offset = getattr(node, "end_col_offset", None)
        end_column = character_column(file.line(end_line), end_offset) + 1 if end_line and end_offset is not None else None
        if fix is not None:
            fix = Fix(tuple(
                Edit(e.line, character_column(file.line(e.line), e.column) + 1, e.end_line, character_column(file.line(e.end_line), e.end_column) + 1, e.text)
                for e in fix.edits
            ), fix.applicability)
        related = _notes(places, self.sources) + _related(_origins_of(origins, names), self.sources)
        if related:
            message = f"{message} ({'; '.join(note.message for note in related)})"
        violation = Violation(file.display, line, column, rule.code, rule.name, message, rule.severity, end_line, end_column, help, fix, related)
        self.found.setdefault(file.display, []).append(violation)
        self.made.append((violation, walk, node, names))


def _origins_of(origins: Dict[str, Origin], names: Tuple[Obj, ...]) -> Dict[str, Origin]:
    """The origins of the parameters through which a finding's subject came (`names`: the paths
    it is reached by, a parameter's rooted at the object the walk's context gave it): a message
    tells how its object got there, not how every other argument of the calls on the way did. A
    rule that names no subject keeps all."""
    if not names:
        return origins
    through = {obj.root[1] for obj in names if obj.root[2] == 0}
    return {name: origin for name, origin in origins.items() if name in through}


def _related(origins: Dict[str, Origin], sources: Mapping[str, ParsedFile]) -> Tuple[Note, ...]:
    """How the objects a walk received got here, as (path, line, column, note): where each
    was sharded and each call that passed it on (for the message, SARIF and the editor)."""
    steps: List[RelatedNode] = []
    for name in sorted(origins):
        origin = origins[name]
        steps.append((origin.shard, f"`{name}` sharded in {origin.scope}"))
        steps += [(call, f"passed to {callee}()") for call, callee in origin.calls]
    return _notes(steps, sources)


def _notes(places: Sequence[RelatedNode], sources: Mapping[str, ParsedFile]) -> Tuple[Note, ...]:
    """Each place as a note that names its file and line (a node of a file not analysed: none)."""
    notes: List[Note] = []
    for node, note in places:
        file = sources.get(node.root().name)
        if file is None:
            continue
        line = node.lineno or 1
        column = character_column(file.line(line), node.col_offset or 0) + 1  # astroid's offsets are bytes
        notes.append(Note(file.display, line, column, f"{note} ({file.display}:{node.lineno})"))
    return tuple(notes)


def internal_error(path: str, component: str, error: BaseException) -> InternalError:
    return InternalError(path, component, f"{type(error).__name__}: {error}", "".join(traceback.format_exception(error)))
