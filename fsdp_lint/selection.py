"""Which codes a run reports: `select`/`ignore` by code or prefix, the more specific entry winning
(`--select FSD201 --ignore FSD2` keeps FSD201), as in ruff."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Tuple


def _best(code: str, prefixes: Sequence[str]) -> int:
    return max((len(p) for p in prefixes if code.startswith(p)), default=-1)


@dataclass(frozen=True)
class Selection:
    select: Tuple[str, ...] = ("FSD",)
    ignore: Tuple[str, ...] = ()

    def enabled(self, code: str) -> bool:
        chosen = _best(code, self.select)
        return chosen >= 0 and chosen > _best(code, self.ignore)
