"""APIs from outside the linted tree that a project declares in `[tool.fsdp-lint.analysis]`: its
own sharding helpers and optimizer classes, which the analysis cannot read (they live in an
installed package) but must know to see a model sharded or an optimizer built.

Plain data without astroid, so that reading the configuration stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import FrozenSet, Optional


@dataclass(frozen=True)
class DeclaredApis:
    # Qualified names of functions that shard their first argument as `fully_shard` does
    # (`mylib.parallel.apply_fsdp`), and of optimizer classes (`mylib.optim.Lion`).
    shard_functions: FrozenSet[str] = frozenset()
    optimizers: FrozenSet[str] = frozenset()

    def shards(self, qname: Optional[str]) -> bool:
        return qname in self.shard_functions

    def optimizer(self, qname: Optional[str]) -> Optional[str]:
        """The class name of a declared optimizer, else None."""
        return qname.rsplit(".", 1)[-1] if qname in self.optimizers and qname else None

    @property
    def scan_names(self) -> FrozenSet[str]:
        """The names the byte scan looks for in a file (as code calls them: the last part)."""
        return frozenset(name.rsplit(".", 1)[-1] for name in self.shard_functions)
