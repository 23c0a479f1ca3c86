"""Documentation generated from the catalogue, so that README, `fsdp-lint rule`, `fsdp-lint rules`
and SARIF's rule metadata cannot disagree. `python -m fsdp_lint.frontends.docs` rewrites README.md's rules
table in place."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Dict

from fsdp_lint.catalogue import Entry, catalogue

START, END = "<!-- rules-table:start -->", "<!-- rules-table:end -->"
REPOSITORY = "https://github.com/fsdp-lint/fsdp-lint"
_HEADING = re.compile(r"^## +(.+?)\s*$", re.M)


def sections(doc: str) -> Dict[str, str]:
    """A doc page's `## Heading` sections by heading; the text before the first one is `""`."""
    found: Dict[str, str] = {}
    parts = _HEADING.split(doc.strip())
    found[""] = parts[0].strip()
    for heading, body in zip(parts[1::2], parts[2::2]):
        found[heading] = body.strip()
    return found


def why(entry: Entry) -> str:
    """The paragraph that says what goes wrong, under either heading the pages use."""
    page = sections(entry.doc)
    return page.get("Why is this bad?") or page.get("Why it matters") or entry.summary


def rule_page(entry: Entry) -> str:
    """`fsdp-lint rule CODE`: the contract's page, its options and its runtime twin."""
    lines = [f"# {entry.name} ({entry.code})", "", f"Severity: {entry.severity}. Enforced by: {entry.enforced_by}.", ""]
    lines.append(entry.doc.strip())
    options = _options(entry.code) if entry.static else ()
    if options:
        lines += ["", "## Options", f"In `[tool.fsdp-lint.rules.{entry.code}]` of pyproject.toml:"]
        lines += [f"- `{o.name}`: {o.help} (built in: {', '.join(sorted(o.builtin)) or 'none'})" for o in options]
    if entry.static and entry.runtime:
        lines += ["", "## Runtime twin", "`fsdp_lint.runtime.enable()` checks the same contract while training:", ""]
        lines.append(_HEADING.sub(r"### \1", entry.runtime.doc.strip()))
    return "\n".join(lines) + "\n"


def documentation_url(entry: Entry) -> str:
    """Where a code's page can be read online (SARIF's `helpUri`, the editor's link on a
    diagnostic's code): the file whose docstring is the page `fsdp-lint rule CODE` prints, in the
    repository, since no documentation site publishes the pages."""
    documented = entry.static or entry.runtime
    assert documented is not None
    folder = "fsdp_lint" if entry.tool else "rules" if entry.static else "runtime_checks"
    return f"{REPOSITORY}/blob/main/{folder}/{Path(documented.path).name}"


def _options(code: str):
    from fsdp_lint.engine.registry import all_rules

    rule = all_rules().get(code)
    return rule.OPTIONS if rule is not None else ()


def rules_list() -> str:
    """`fsdp-lint rules`: one line per contract."""
    return "".join(f"{e.code}  {e.name:<32} {e.enforced_by:<15} {e.summary}\n" for e in catalogue().values())


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
