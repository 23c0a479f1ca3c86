"""Finds the static rules: every `Rule` subclass defined in a module of `fsdp_lint.rules`."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from typing import Dict, Type

from fsdp_lint.engine.rule import Rule


@lru_cache(maxsize=1)
def all_rules() -> Dict[str, Type[Rule]]:
    import fsdp_lint.rules as package

    found: Dict[str, Type[Rule]] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Rule) and value is not Rule and value.__module__ == module.__name__:
                if value.code in found:
                    raise RuntimeError(f"two rules claim {value.code}: {found[value.code].__name__} and {value.__name__}")
                found[value.code] = value
    return dict(sorted(found.items()))
