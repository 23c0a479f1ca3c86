"""Qualified names of the things the rules care about, resolved from import statements alone.

The static side must never import torch nor the linted code, so names are resolved from the
syntax of imports (`import torch.distributed.fsdp as fsdp`, `from ... import x as y`, relative
imports) and from assignments that alias them (`shard = fully_shard`, `functools.partial(...)`),
never by inference into installed packages.
"""

from __future__ import annotations

from typing import List, Optional, Sequence

from astroid import nodes

FULLY_SHARD = frozenset(
    {
        "torch.distributed.fsdp.fully_shard",
        "torch.distributed.fsdp._fully_shard.fully_shard",
        "torch.distributed.fsdp._fully_shard._fully_shard.fully_shard",
        "torch.distributed._composable.fsdp.fully_shard",
        "torch.distributed._composable.fsdp.fully_shard.fully_shard",
    }
)
PARTIAL = frozenset({"functools.partial"})

_MAX_ALIAS_DEPTH = 8


def relative_module(module: nodes.Module, modname: Optional[str], level: Optional[int]) -> str:
    """The absolute module name of `from <level dots><modname> import ...` inside `module`."""
    if not level:
        return modname or ""
    parts = module.name.split(".") if module.name else []
    if not module.package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    if modname:
        parts.append(modname)
    return ".".join(parts)


def _import_binding(node: nodes.NodeNG, name: str) -> Optional[str]:
    module = node.root()
    if isinstance(node, nodes.Import):
        for full, alias in node.names:
            if alias == name:
                return full
            if alias is None and full.split(".")[0] == name:
                return name
    elif isinstance(node, nodes.ImportFrom):
        base = relative_module(module, node.modname, node.level)
        for imported, alias in node.names:
            if (alias or imported) == name and imported != "*":
                return f"{base}.{imported}" if base else imported
    return None


def binding_of(scope_node: nodes.NodeNG, name: str) -> Optional[nodes.NodeNG]:
    """The single statement that binds `name` where `scope_node` reads it, or None if ambiguous,
    a builtin or unbound."""
    assignments = _bindings(scope_node, name)
    return assignments[-1] if assignments else None


def _bindings(node: nodes.NodeNG, name: str) -> Sequence[nodes.NodeNG]:
    """astroid's lookup of `name` from `node`, except for a name no enclosing scope binds (a
    builtin, or undefined): astroid would end in its `builtins` module, which it builds from the
    running interpreter the first time (0.07 s, a tenth of a cold run on the torch tree), only to
    say that the name is not bound in the tree."""
    if name not in nodes.Module.scope_attrs:
        scope: Optional[nodes.NodeNG] = node.scope()
        while scope is not None and name not in scope.locals:
            scope = scope.parent.scope() if scope.parent is not None else None
        if scope is None:
            return ()
    try:
        found, assignments = node.lookup(name)
    except Exception:  # astroid raises on malformed scopes; an unknown binding is simply unknown
        return ()
    binding = [a for a in assignments if not _bare_annotation(a)]
    if assignments and not binding:  # `fully_shard: Any` after the import: the import still binds it
        binding = [a for a in found.locals.get(name, ()) if not _bare_annotation(a)]
    return binding


def _bare_annotation(node: nodes.NodeNG) -> bool:
    """`name: T` without a value: an annotation for type checkers, which binds nothing (AgileRL
    declares `fully_shard: Any` before importing it)."""
    return isinstance(node, nodes.AssignName) and isinstance(node.parent, nodes.AnnAssign) and node.parent.value is None


def _version_conditional_imports(assignments: Sequence[nodes.NodeNG]) -> List[nodes.NodeNG]:
    """The imports among the bindings of a name bound by several statements that are all imports
    or a `None` fallback: `try: from torch.distributed.fsdp import fully_shard / except
    ImportError: from torch.distributed._composable.fsdp import fully_shard`, or `else:
    fully_shard = None`. They name one API under the paths of different versions; empty when any
    binding is something else."""
    if len(assignments) < 2:
        return []
    imports = []
    for binding in assignments:
        if isinstance(binding, (nodes.Import, nodes.ImportFrom)):
            imports.append(binding)
        elif not _is_none_fallback(binding):
            return []
    return imports


def _is_none_fallback(binding: nodes.NodeNG) -> bool:
    """`x = None` or `x, y = None, None`: the name of an optional import when it is unavailable."""
    assign = binding.parent
    while isinstance(assign, nodes.Tuple):
        assign = assign.parent
    if not isinstance(assign, nodes.Assign):
        return False
    value = assign.value
    elements = value.elts if isinstance(value, nodes.Tuple) else [value]
    return all(isinstance(e, nodes.Const) and e.value is None for e in elements)


def qualified_name(expr: nodes.NodeNG, depth: int = 0) -> Optional[str]:
    """The dotted name `expr` refers to (`torch.distributed.fsdp.fully_shard`), if resolvable.

    Names bound by a `def` or `class` of the module resolve to `<module>.<name>`; names bound to
    another name (`shard = fully_shard`) resolve through it.
    """
    if depth > _MAX_ALIAS_DEPTH:
        return None
    if isinstance(expr, nodes.Attribute):
        base = qualified_name(expr.expr, depth + 1)
        return f"{base}.{expr.attrname}" if base else None
    if not isinstance(expr, nodes.Name):
        return None
    assignments = _bindings(expr, expr.name)
    imports = _version_conditional_imports(assignments)
    if imports:
        return _import_binding(imports[0], expr.name)
    if not assignments:
        return None
    binding = assignments[-1]
    if isinstance(binding, (nodes.Import, nodes.ImportFrom)):
        return _import_binding(binding, expr.name)
    if isinstance(binding, (nodes.FunctionDef, nodes.ClassDef)):
        module = binding.root()
        return f"{module.name}.{binding.name}" if binding.parent is module else None
    if isinstance(binding, nodes.AssignName):
        assign = binding.parent
        if isinstance(assign, nodes.Assign) and len(assign.targets) == 1 and assign.targets[0] is binding:
            if isinstance(assign.value, (nodes.Name, nodes.Attribute)):
                return qualified_name(assign.value, depth + 1)
    return None
