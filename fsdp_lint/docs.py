"""Documentation generated from the catalogue, so that README, `fsdp-lint rule` and SARIF cannot
disagree. `python -m fsdp_lint.docs` rewrites README.md's rules table in place."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from fsdp_lint.catalogue import catalogue

START, END = "<!-- rules-table:start -->", "<!-- rules-table:end -->"


def rules_table() -> str:
    rows = ["| Code | Name | Severity | Checked | What it reports |", "|---|---|---|---|---|"]
    for entry in catalogue().values():
        rows.append(f"| {entry.code} | `{entry.name}` | {entry.severity} | {entry.enforced_by} | {entry.summary} |")
    return "\n".join(rows)


def with_table(readme: str) -> str:
    block = f"{START}\n{rules_table()}\n{END}"
    return re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: block, readme, flags=re.S)


def main() -> int:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "README.md")
    path.write_text(with_table(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
