"""What a user sees when the guard stops a program: a few lines per rank, pointing at their line.

Real scripts in fresh processes (the guard enabled in the script, or by the CLI), most of them
on one gloo rank: the output does not depend on the number of ranks, and one process is cheap.
Warnings attributed to the user's line, and the optimizer's line in FSD202, are checked in
test_checks_distributed.py; the verbose switch in test_api.py.
"""

import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")

from tests.runtime import stops  # noqa: E402
from tests.runtime.distributed import ROOT, _free_port, run_command_ranks  # noqa: E402


def _single(tmp_path, scripts):
    """Run each ``name -> (source, argv prefix, env)`` as rank 0 of a world of 1, all at once."""
    procs = {}
    for name, (source, prefix, env) in scripts.items():
        path = tmp_path / f"{name}.py"
        path.write_text(source)
        environment = {**os.environ, "RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1",
                       "MASTER_PORT": str(_free_port()), "OMP_NUM_THREADS": "1", "PYTHONPATH": ROOT, **env}
        procs[name] = subprocess.Popen([sys.executable, *prefix, path.name], cwd=tmp_path, env=environment,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    done = {}
    for name, proc in procs.items():
        output, _ = proc.communicate(timeout=120)
        done[name] = (proc.returncode, output)
    return done


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("scripts")
    return _single(tmp, {
        "bypass": (stops.script(stops.FORWARD_BYPASS, ROOT), [], {}),
        "bypass_cli": (stops.script(stops.FORWARD_BYPASS, ROOT, enable=""), ["-m", "fsdp_lint.runtime"], {}),
        "submodule": (stops.script(stops.SUBMODULE_OF_BLOCK, ROOT), [], {}),
    })


def _lines(output):
    return [line for line in output.splitlines() if line.strip() and not line.startswith("[W")]


@pytest.mark.parametrize("name", ["bypass", "bypass_cli"])
def test_a_finding_prints_its_message_and_the_users_line_not_a_traceback(runs, name):
    code, output = runs[name]
    lines = _lines(output)
    assert code == 1 and len(lines) <= 4, output
    assert "Traceback" not in output and "runpy" not in output and "fsdp_lint/runtime" not in output, output
    assert re.search(r"FSDPContractError: FSD201 forward-bypass: \[rank 0\] forward\(\) of the root module", output)
    assert re.search(rf"  at {name}.py:\d+ in <module>: loss = model.forward\(batch\(dist.get_rank\(\)\)\).sum\(\)",
                     output), output


def test_an_uncaught_mixed_tensor_error_is_explained(runs):
    code, output = runs["submodule"]
    assert code == 1 and "Traceback" not in output, output
    assert "FSD201" in output and "`layers.1.fc1` (Linear) belongs to the unit `layers.1` (Block)" in output, output
    assert "fully_shard(model.layers[1].fc1)" in output
    assert "then: RuntimeError: aten.addmm.default got mixed torch.Tensor and DTensor" in output, output


def test_a_rank_stopped_by_a_peer_prints_the_peers_finding_not_gloos_traceback(tmp_path):
    """Rank 1 waits in its own all_reduce when rank 0 stops: it prints rank 0's finding, then gloo's error in a line."""
    script = tmp_path / "train.py"
    script.write_text(stops.script(stops.PEER_STOP, ROOT))
    per_rank = run_command_ranks([sys.executable, str(script)], cwd=str(tmp_path), timeout_s=90)
    for rank, result in enumerate(per_rank):
        assert not result["hung"] and result["exitcode"] == 1, result
        assert "Traceback" not in result["output"] and len(_lines(result["output"])) <= 5, result["output"]
    assert "FSDPContractError: FSD302 plain-state-dict-load: [rank 0]" in per_rank[0]["output"]
    rank1 = per_rank[1]["output"]
    assert "FSDPContractError: FSD302 plain-state-dict-load: [rank 1, found on rank 0]" in rank1, rank1
    assert re.search(r"rank 0 at train.py:\d+ in <module>: model.load_state_dict", rank1), rank1
