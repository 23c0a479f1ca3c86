"""The call graph the walks found, as the analysis needs it: which cycles of functions no code
outside them calls (their members are entry points: nothing else would analyse them)."""

from __future__ import annotations

from typing import Dict, FrozenSet, Iterable, List, Mapping, Set


def unreached_cycles(graph: Mapping[str, Iterable[str]]) -> FrozenSet[str]:
    """The members of every strongly connected component of more than one function that no
    edge from outside it enters."""
    components = strongly_connected(graph)
    component_of = {node: index for index, component in enumerate(components) for node in component}
    entered: Set[int] = set()
    for caller, callees in graph.items():
        for callee in callees:
            if callee in component_of and component_of[callee] != component_of.get(caller):
                entered.add(component_of[callee])
    return frozenset(
        node for index, component in enumerate(components) if len(component) > 1 and index not in entered for node in component
    )


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> List[FrozenSet[str]]:
    """Tarjan's algorithm, iterative (call chains run deeper than Python's recursion limit);
    nodes only called are components of their own."""
    successors: Dict[str, List[str]] = {node: sorted(set(callees)) for node, callees in graph.items()}
    for callees in list(successors.values()):
        for callee in callees:
            successors.setdefault(callee, [])
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    components: List[FrozenSet[str]] = []
    for start in sorted(successors):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            for offset, callee in enumerate(successors[node][position:], position):
                if callee not in index:
                    work.append((node, offset + 1))
                    work.append((callee, 0))
                    break
                if callee in on_stack:
                    low[node] = min(low[node], index[callee])
            else:
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    components.append(frozenset(component))
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return components
