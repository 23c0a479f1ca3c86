"""`--format sarif` checked by a SARIF 2.1.0 validator and `--format github` by a parser of the
workflow-command syntax the Actions runner reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, Tuple

import jsonschema
import pytest

from fsdp_lint.catalogue import catalogue
from tests.ecosystem.samples import ROOT_ONLY, TRAIN
from tests.static.helpers import run_cli, write_tree

# The OASIS SARIF 2.1.0 schema (errata 01), from oasis-tcs/sarif-spec sarif-2.1/schema/.
SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


@pytest.fixture
def tree(tmp_path, monkeypatch):
    write_tree(tmp_path, {"src/train.py": TRAIN, "src/my model.py": ROOT_ONLY})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def sarif(args):
    run = run_cli(["--format", "sarif", *args])
    document = json.loads(run.out)
    jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER).validate(document)
    return run.code, document


def test_sarif_validates_and_carries_results_rules_and_fixes(tree):
    code, document = sarif(["src"])
    assert code == 1
    run = document["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "fsdp-lint" and driver["version"]
    rules = {rule["id"]: rule for rule in driver["rules"]}
    for entry in catalogue().values():
        if entry.static:
            rule = rules[entry.code]
            assert rule["shortDescription"]["text"] == entry.summary
            assert rule["fullDescription"]["text"] and rule["fullDescription"]["text"] in entry.doc
            assert rule["help"]["text"] == entry.doc
    results = run["results"]
    assert sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results) == [
        ("FSD101", 5), ("FSD201", 9), ("FSD201", 10), ("FSD202", 5), ("FSD301", 11)
    ]
    for result in results:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
    by_rule = {r["ruleId"]: r for r in sorted(results, key=lambda r: -r["locations"][0]["physicalLocation"]["region"]["startLine"])}
    assert by_rule["FSD101"]["level"] == "warning" and by_rule["FSD202"]["level"] == "error"
    location = by_rule["FSD101"]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "src/my%20model.py", "uriBaseId": "%SRCROOT%"}
    replacement = by_rule["FSD201"]["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert replacement == {"deletedRegion": {"startLine": 9, "startColumn": 12, "endLine": 9, "endColumn": 20}, "insertedContent": {"text": ""}}


def test_sarif_of_a_clean_run_validates(tree):
    code, document = sarif(["--select", "FSD102", "src"])
    assert code == 0 and document["runs"][0]["results"] == []


def parse_workflow_command(line: str) -> Tuple[str, Dict[str, str], str]:
    """actions/runner `ActionCommand.TryParseV2`: `::name k=v,k=v::data`, properties split at `,`
    and the first `=`, then unescaped (%0D %0A %3A %2C %25), data unescaped (%0D %0A %25)."""
    assert line.startswith("::")
    end = line.index("::", 2)
    info, data = line[2:end], line[end + 2:]
    name, _, rest = info.partition(" ")
    properties = {}
    for pair in filter(None, rest.split(",")):
        key, _, value = pair.partition("=")
        for escaped, plain in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
            value = value.replace(escaped, plain)
        properties[key] = value
    for escaped, plain in (("%0D", "\r"), ("%0A", "\n"), ("%25", "%")):
        data = data.replace(escaped, plain)
    return name, properties, data


def test_github_annotations_parse_back_to_the_findings(tree):
    run = run_cli(["--format", "github", "src"])
    assert run.code == 1
    commands = [parse_workflow_command(line) for line in run.out.splitlines()]
    assert len(commands) == 5
    records = {(p["file"], p["line"], p["title"]): (name, p, data) for name, p, data in commands}
    name, properties, data = records[("src/my model.py", "5", "FSD101")]
    assert name == "warning"
    name, properties, data = records[("src/train.py", "10", "FSD201")]
    assert name == "error"
    assert properties == {"file": "src/train.py", "line": "10", "col": "5", "endLine": "10", "endColumn": "43", "title": "FSD201"}
    assert data == (
        "src/train.py:10:5: FSD201 `model.layers[*].forward(...)` bypasses FSDP's forward hooks on a sharded module\n"
        "help: call the module itself: `model.layers[*](...)`"
    )


def test_github_escaping_of_properties_and_data():
    from fsdp_lint.frontends.output.github import annotation
    from fsdp_lint.violation import Violation

    v = Violation("dir,with:odd%/x.py", 3, 1, "FSD201", "forward-bypass", "100% of\r\nit", help="a,b: c")
    line = annotation(v)
    assert "\n" not in line and "\r" not in line
    assert line.startswith("::error file=dir%2Cwith%3Aodd%25/x.py,line=3,col=1,title=FSD201::")
    name, properties, data = parse_workflow_command(line)
    assert properties["file"] == "dir,with:odd%/x.py"
    assert data == "dir,with:odd%/x.py:3:1: FSD201 100% of\r\nit\nhelp: a,b: c"


def test_text_statistics_and_quiet(tree):
    stats = run_cli(["--statistics", "src"])
    assert stats.code == 1
    assert stats.out.splitlines() == [
        "2  FSD201  [*] forward-bypass",
        "1  FSD101      root-only-sharding",
        "1  FSD202      optimizer-before-shard",
        "1  FSD301      save-sharded-state",
        "Found 5 findings (1 FSD101, 2 FSD201, 1 FSD202, 1 FSD301).",
    ]
    quiet = run_cli(["--quiet", "--format", "concise", "src"])
    assert quiet.code == 1 and len(quiet.out.splitlines()) == 5 and "Found" not in quiet.out
    assert run_cli(["--quiet", "--select", "FSD102", "src"]).out == ""
