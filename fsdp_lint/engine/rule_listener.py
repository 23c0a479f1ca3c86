"""The rules listening to one walk: what they reported, the functions the walk called (in which
contexts, with which origins), and the rules that crashed.

Each walk gets its own instances of the rules, since a rule keeps what it saw until the end of a
walk and the walks of the fact pass nest (a callee's summary is walked inside its caller's walk).
The fact pass's walks are heard this way too, so the rule pass can take a walk's findings from its
record (`Project.replayable`) instead of walking again; what they heard is only rendered as
findings by the rule pass (`tree_analysis._RuleRunner`).
"""

from __future__ import annotations

from typing import Dict, Optional, Sequence, Set, Tuple, Type

from astroid import nodes

from fsdp_lint.analysis.context import Context, Origin
from fsdp_lint.analysis.flow import CallListener, Flow, Handed
from fsdp_lint.analysis.values import Obj
from fsdp_lint.analysis.walk_records import NO_ORIGINS
from fsdp_lint.engine.rule import RelatedNode, Rule, RuleSetting
from fsdp_lint.violation import Fix

# The last item: the names the walk knows the finding's subject by (`Flow.names_of`; none without
# one), by which a caller's finding about the object it handed over is found the same
# (`fsdp_lint.engine.explained_findings`).
Report = Tuple[Rule, nodes.NodeNG, str, Optional[str], Optional[Fix], Sequence[RelatedNode], Tuple[Obj, ...]]
Callee = Tuple[nodes.NodeNG, nodes.FunctionDef, Context, Dict[str, Origin], Handed]


class RuleListener(CallListener):
    """Runs fresh instances of `rules` on one walk, skipping a rule where `failed` says it crashed
    on the walk's module (and adding to it when it crashes; None: the walk's own set, made at its
    first crash). One is kept for every walk of the facts (`fsdp_lint.analysis.walk_records`):
    slotted, with no list or set until it has something to hold."""

    __slots__ = ("configuration", "failed", "reports", "callees", "crashes", "_module", "_call_rules", "_end_rules", "_flow")

    def __init__(self, rules: Tuple[Type[Rule], ...], settings: Tuple[RuleSetting, ...], failed: Optional[Set[Tuple[str, str]]] = None):
        self.configuration = (rules, settings)
        self.failed = failed
        self.reports: Sequence[Report] = ()
        self.callees: Sequence[Callee] = ()
        self.crashes: Sequence[Tuple[Rule, Exception, str]] = ()  # the rule, its error, the walk's module
        self._module: Optional[str] = None  # the walk's
        self._flow: Optional[Flow] = None  # while a rule runs: the walk it asks (kept no longer, so no record keeps a walk alive)
        instances = [rule(self._report).configure(settings) for rule in rules]
        self._call_rules: Sequence[Rule] = [r for r in instances if type(r).on_call is not Rule.on_call]
        self._end_rules: Sequence[Rule] = [r for r in instances if type(r).on_function_end is not Rule.on_function_end]

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        module = self._module_of(flow)
        self._flow = flow
        for rule in self._call_rules:
            if not self.failed or (rule.code, module) not in self.failed:
                try:
                    rule.on_call(node, flow)
                except Exception as error:
                    self._crash(rule, error, module)
        self._flow = None

    def on_function_end(self, flow: Flow) -> None:
        module = self._module_of(flow)
        self._flow = flow
        for rule in self._end_rules:
            if not self.failed or (rule.code, module) not in self.failed:
                try:
                    rule.on_function_end(flow)
                except Exception as error:
                    self._crash(rule, error, module)
        self._flow = None
        self._call_rules = self._end_rules = ()  # the walk is over: what its rules kept is not needed
        self.callees = tuple(self.callees)

    def on_callee(
        self, flow: Flow, call: nodes.NodeNG, func: nodes.FunctionDef, context: Context, origins: Dict[str, Origin], handed: Handed = (),
    ) -> None:
        callees = self.callees if isinstance(self.callees, list) else []
        callees.append((call, func, context, origins or NO_ORIGINS, handed))
        self.callees = callees

    def _module_of(self, flow: Flow) -> str:
        if self._module is None:
            self._module = flow.scope.root().name
        return self._module

    def _crash(self, rule: Rule, error: Exception, module: str) -> None:
        self.crashes = [*self.crashes, (rule, error, module)]
        if self.failed is None:
            self.failed = set()
        self.failed.add((rule.code, module))

    def _report(
        self, rule: Rule, node: nodes.NodeNG, message: str, help: Optional[str], fix: Optional[Fix], places: Sequence[RelatedNode],
        subject: Optional[Obj],
    ) -> None:
        names = self._flow.names_of(subject) if subject is not None and self._flow is not None else ()
        self.reports = [*self.reports, (rule, node, message, help, fix, places, names)]
