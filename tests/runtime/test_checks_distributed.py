"""Every runtime check in a real 2-rank FSDP2 loop (gloo, CPU), in raise and warn mode.

Every scenario also runs with its blocks under ``checkpoint_wrapper`` and compiled before
``fully_shard`` (raise mode): the guard must catch the same violations there and never break a
correct program. All scenarios share one spawned process group: spawning is what costs time.
"""

import os
import re
import tempfile

import pytest

torch = pytest.importorskip("torch")

from tests.runtime import scenarios  # noqa: E402
from tests.runtime.distributed import run_ranks, run_script_ranks  # noqa: E402

SCENARIO_FILE = os.path.join(os.path.dirname(__file__), "scenarios.py")

# scenario -> (code raised in raise mode, torch's own error in warn mode after the warning, if any)
VIOLATIONS = {
    "fsd201_direct_forward": ("FSD201", "got mixed torch.Tensor and DTensor"),
    "fsd201_after_nograd_forward": ("FSD201", None),
    "fsd201_after_unshard": ("FSD201", None),
    "fsd201_child_forward": ("FSD201", "got mixed torch.Tensor and DTensor"),
    "fsd102_child_after_parent": ("FSD102", "TypeError"),
    "fsd202_before_shard": ("FSD202", None),
    "fsd202_after_forward": ("FSD202", None),
    "fsd301_save": ("FSD301", None),
    "fsd105_to_empty_without_init": ("FSD105", None),
    "fsd105_still_on_meta": ("FSD105", "should be materialized from meta device"),
    "fsd204_recast": ("FSD204", "Expected out tensor to have dtype double"),
    "fsd204_replaced": ("FSD204", None),
    "fsd203_summon_full_params": ("FSD203", None),
    "fsd203_clip_grad_norm": ("FSD203", "_is_root"),
    "fsd203_state_dict_type": ("FSD203", "KeyError"),
    "fsd203_optim_state_dict_to_load": ("FSD203", "state_dict_type"),
    "fsd203_shard_full_optim_state_dict": ("FSD203", "IndexError"),
    "fsd103_blocks_only": ("FSD103", None),
    "fsd104_tied_split": ("FSD104", "is shared with a parameter already managed by another FSDP group"),
    "fsd107_fsdp1_mixed_precision": ("FSD107", "mat1 and mat2 must have the same dtype"),
    "fsd107_fsdp1_cpu_offload": ("FSD107", None),
    "fsd107_root_without_policy": ("FSD107", "mat1 and mat2 must have the same dtype"),
    "fsd205_sync_left_off": ("FSD205", None),
    "fsd205_sync_enabled_after_backward": ("FSD205", None),
    "fsd302_plain_load": ("FSD302", "Error(s) in loading state_dict"),
    "fsd201_submodule_outside_its_unit": ("FSD201", "got mixed torch.Tensor and DTensor"),
    "fsd201_block_submodule_outside_its_unit": ("FSD201", "got mixed torch.Tensor and DTensor"),
    "fsd201_block_before_root": ("FSD201", "already been lazily initialized"),
}
# Unguarded (or in warn mode) these would leave mismatched collectives behind: raise mode only.
RAISE_ONLY = {"fsd108_different_units": "FSD108", "fsd108_different_mesh": "FSD108",
              "fsd108_forward_order": "FSD108", "fsd206_full_state_dict_on_rank0": "FSD206",
              "fsd206_checkpoint_before_first_forward": "FSD206", "fsd206_full_tensor_on_rank0": "FSD206"}
CLEAN = ["clean_training", "clean_mixed_precision", "clean_checkpointing", "clean_meta_init", "clean_compile",
         "clean_threads", "clean_compile_root", "clean_tied", "clean_parameterless_root",
         "clean_full_state_dict_load", "clean_sharding_order", "clean_head_outside_forward",
         "clean_collectives_on_every_rank", "clean_resume_with_assign", "clean_resume_with_broadcast",
         "clean_per_rank_checkpoint", "clean_recast_before_first_forward", "clean_fsdp1_detection"]
# Scenarios about compiling or about a model without blocks: the block variants do not apply.
PLAIN_ONLY = {"clean_compile", "clean_compile_root", "fsd102_child_after_parent", "fsd101_root_only"}
WRAPPED = [variant for variant in scenarios.VARIANTS if variant != "plain"]


@pytest.fixture(scope="module")
def results():
    jobs = [[name, mode] for name in VIOLATIONS for mode in ("raise", "warn")]
    jobs += [["fsd101_root_only", "raise"], ["fsd101_root_only", "warn"], ["fsd203_no_sync", "warn"],
             ["fsd301_save_nothing_written", "raise"], ["fsd107_low_precision_reduce", "raise"]]
    jobs += [[name, "raise"] for name in RAISE_ONLY]
    jobs += [[name, "raise"] for name in CLEAN]
    jobs += [[name, "raise", variant] for variant in WRAPPED for name in [*VIOLATIONS, *RAISE_ONLY, *CLEAN]
             if name not in PLAIN_ONLY]
    jobs += [["compare_guarded_losses", None], ["enable_disable_restores", None], ["late_rank_is_named", None]]
    with tempfile.TemporaryDirectory() as tmp:
        per_rank = run_ranks(SCENARIO_FILE, "run_scenarios", {"jobs": jobs, "tmp": tmp}, timeout_s=480)
    for rank, result in enumerate(per_rank):
        assert result["ok"], f"rank {rank}: {result.get('traceback') or result}"
    return [result["value"] for result in per_rank]


@pytest.mark.parametrize("name", sorted(VIOLATIONS))
def test_violation_raises_its_code_on_every_rank(results, name):
    code = VIOLATIONS[name][0]
    for rank, by_job in enumerate(results):
        entry = by_job[f"raise:{name}"]
        assert entry["error"] == code, (rank, entry)
        assert entry["message"].startswith(f"{code} "), entry["message"]
        assert f"[rank {rank}" in entry["message"] and "Fix:" in entry["message"]
        assert f"fsdp-lint rule {code}" in entry["message"]


@pytest.mark.parametrize("name", sorted(VIOLATIONS))
def test_violation_warns_once_in_warn_mode(results, name):
    code, torch_error = VIOLATIONS[name]
    for rank, by_job in enumerate(results):
        entry = by_job[f"warn:{name}"]
        assert entry["error"] is None and entry["warnings"] == [code], (rank, entry)
        if torch_error is None:
            assert entry["other"] is None, entry
        else:
            assert torch_error in entry["other"], entry


@pytest.mark.parametrize("name", sorted(RAISE_ONLY))
def test_rank_divergence_stops_every_rank_before_the_collective(results, name):
    for rank, by_job in enumerate(results):
        entry = by_job[f"raise:{name}"]
        assert entry["error"] == RAISE_ONLY[name] and f"[rank {rank}" in entry["message"], entry


@pytest.mark.parametrize("name", sorted(n for n in RAISE_ONLY if n.startswith("fsd108_different")) +
                         ["fsd105_to_empty_without_init"])
def test_a_finding_of_every_rank_is_the_same_finding_on_every_rank(results, name):
    """FSD105: rank 1's shard of ``out.weight`` (1 x 16) is empty, yet both name the same tensors."""
    assert results[0]["raise:" + name]["message"].split("] ", 1)[1] == results[1]["raise:" + name]["message"].split(
        "] ", 1)[1]


@pytest.mark.parametrize("variant", WRAPPED)
@pytest.mark.parametrize("name", sorted(set(VIOLATIONS) | set(RAISE_ONLY)))
def test_violation_is_caught_with_wrapped_or_compiled_blocks(results, name, variant):
    if name in PLAIN_ONLY:
        pytest.skip("not about blocks")
    code = VIOLATIONS[name][0] if name in VIOLATIONS else RAISE_ONLY[name]
    for rank, by_job in enumerate(results):
        entry = by_job[f"raise:{name}@{variant}"]
        assert entry["error"] == code and f"[rank {rank}" in entry["message"], (rank, entry)


@pytest.mark.parametrize("variant", WRAPPED)
@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_loop_runs_clean_with_wrapped_or_compiled_blocks(results, name, variant):
    if name in PLAIN_ONLY:
        pytest.skip("not about blocks")
    for rank, by_job in enumerate(results):
        entry = by_job[f"raise:{name}@{variant}"]
        assert entry == {**entry, "error": None, "warnings": [], "other": None}, (rank, entry)


def test_divergence_messages_name_what_differs(results):
    by_job = results[0]
    assert "`layers.2` is a fully_shard unit on rank(s) [0] but not on rank(s) [1]" in by_job[
        "raise:fsd108_different_units"]["message"]
    assert "('dp',)" in by_job["raise:fsd108_different_mesh"]["message"]
    order = by_job["raise:fsd108_forward_order"]["message"]
    assert "different order" in order and "`layers.0`" in order and "`layers.2`" in order, order


def test_collective_on_some_ranks_names_who_did_not_come_and_where_they_are(results):
    # Each rank reports what it found, or the other's report if that reached it first.
    for by_job in results:
        text = by_job["raise:fsd206_full_state_dict_on_rank0"]["message"]
        assert re.search(r"get_model_state_dict\(\) communicates with ranks \[0, 1\], but rank\(s\) \[1\] did not "
                         r"come \(rank 1: it waits in clip_grad_norm_\(\) at \S*scenarios.py:\d+", text) or re.search(
            r"clip_grad_norm_\(\) communicates with ranks \[0, 1\], but rank\(s\) \[0\] did not come \(rank 0: it "
            r"waits in get_model_state_dict\(\) at \S*scenarios.py:\d+", text), text
    first = results[1]["raise:fsd206_checkpoint_before_first_forward"]["message"]
    assert "the first forward of the model" in first and "it waits in dcp.save()" in first, first
    alone = results[0]["raise:fsd206_full_tensor_on_rank0"]["message"]
    assert "DTensor.full_tensor()" in alone and "it waits in dcp.save()" in alone, alone


def test_a_submodule_outside_its_unit_and_a_block_before_the_root_are_named(results):
    by_job = results[0]
    outside = by_job["raise:fsd201_submodule_outside_its_unit"]["message"]
    assert "`inp` (Linear) belongs to the unit the root module (Model)" in outside, outside
    inner = by_job["raise:fsd201_block_submodule_outside_its_unit"]["message"]
    assert "`layers.0.fc1` (Linear) belongs to the unit `layers.0` (Block)" in inner, inner
    first = by_job["raise:fsd201_block_before_root"]["message"]
    assert re.search(r"`layers.0` \(Block\) ran its forward \(at \S*scenarios.py:\d+", first), first
    assert "lazily initialized" in first, first


def test_low_precision_reduce_warns_even_in_raise_mode(results):
    for by_job in results:
        entry = by_job["raise:fsd107_low_precision_reduce"]
        assert entry["error"] is None and entry["other"] is None and entry["warnings"] == ["FSD107"], entry
        assert "reduces gradients in bfloat16" in entry["message"]


def test_new_checks_name_what_to_change(results):
    by_job = results[0]
    assert "`head.weight` is the same parameter as `model.emb.weight`" in by_job["raise:fsd104_tied_split"]["message"]
    assert "fully_shard([model.emb, model.head])" in by_job["raise:fsd104_tied_split"]["message"]
    assert "`inp.weight`" in by_job["raise:fsd103_blocks_only"]["message"]
    assert "root (Model) has no mixed-precision policy" in by_job["raise:fsd107_root_without_policy"]["message"]
    assert "MixedPrecision(...)" in by_job["raise:fsd107_fsdp1_mixed_precision"]["message"]
    assert "gradient sync is off" in by_job["raise:fsd205_sync_left_off"]["message"]
    assert "unreduced, unsharded gradients" in by_job["raise:fsd205_sync_enabled_after_backward"]["message"]
    assert "set_model_state_dict" in by_job["raise:fsd302_plain_load"]["message"]


def test_root_only_sharding_warns_even_in_raise_mode(results):
    for by_job in results:
        for mode in ("raise", "warn"):
            entry = by_job[f"{mode}:fsd101_root_only"]
            assert entry["error"] is None and entry["other"] is None and entry["warnings"] == ["FSD101"], entry
            assert "`layers`" in entry["message"]


def test_messages_name_the_module_path(results):
    by_job = results[0]
    assert "`layers.0` (Block)" in by_job["raise:fsd201_child_forward"]["message"]
    assert "`layers.0`" in by_job["raise:fsd102_child_after_parent"]["message"]
    assert "`layers.1.fc1.weight`" in by_job["raise:fsd204_replaced"]["message"]
    assert "obj['model']['inp.weight']" in by_job["raise:fsd301_save"]["message"]
    assert "set_requires_gradient_sync" in by_job["warn:fsd203_no_sync"]["message"]
    assert re.search(r"SGD \(built at \S*scenarios.py:\d+ in fsd202_before_shard: optimizer = torch.optim.SGD",
                     by_job["raise:fsd202_before_shard"]["message"])


def test_no_sync_stays_an_attribute_error_that_hasattr_hides(results):
    for by_job in results:
        entry = by_job["warn:fsd203_no_sync"]
        assert entry["error"] == "FSD203", entry  # hasattr() was False first (scenario returns early otherwise)


def test_save_writes_nothing_in_raise_mode_and_everything_in_warn_mode(results):
    for by_job in results:
        assert by_job["raise:fsd301_save_nothing_written"]["value"] is True
        assert by_job["warn:fsd301_save"]["value"] is True
    assert "every rank of the mesh saves its own shards into the same file" in results[0]["raise:fsd301_save"][
        "message"]


def test_messages_point_to_the_users_line_and_warnings_are_attributed_to_it(results):
    for name in VIOLATIONS:
        entry = results[0][f"raise:{name}"]
        message = entry["message"]
        # the rank that found it first names the line: this one (`  at`), or another, whose line
        # comes first and this rank's stop after it (`[rank 0, found on rank 1]`: which rank's
        # check runs first is a race between the two processes)
        own = "\n  at " in message
        other = "found on rank" in message.splitlines()[0] and "\n  this rank stopped at " in message
        assert (own or other) and "scenarios.py:" in message and len(message.splitlines()) <= 3, message
        assert results[0][f"warn:{name}"]["where"].startswith("scenarios.py:"), (name, results[0][f"warn:{name}"])


@pytest.mark.parametrize("name", CLEAN)
def test_correct_loop_runs_clean(results, name):
    for rank, by_job in enumerate(results):
        entry = by_job[f"raise:{name}"]
        assert entry == {**entry, "error": None, "warnings": [], "other": None}, (rank, entry)


def test_guarded_and_unguarded_losses_are_bit_identical(results):
    for by_job in results:
        entry = by_job["None:compare_guarded_losses"]
        assert entry["other"] is None, entry
        assert entry["value"]["plain"] == entry["value"]["guarded"]


def test_disable_restores_everything_enable_touched(results):
    for by_job in results:
        entry = by_job["None:enable_disable_restores"]
        assert entry["other"] is None, entry
        assert entry["value"] == {"patched": True, "restored": True, "restored_again": True,
                                  "caught_after_cycle": True}


def test_violation_seen_by_one_rank_stops_every_rank():
    """Rank 0 alone saves a sharded state dict; rank 1 must not wait in the next all-gather."""
    with tempfile.TemporaryDirectory() as tmp:
        per_rank = run_ranks(SCENARIO_FILE, "rank0_saves_sharded", tmp, timeout_s=60)
    for rank, result in enumerate(per_rank):
        assert not result["hung"] and result["exitcode"] != 0, result
        assert result["code"] == "FSD301", result
    assert per_rank[1]["message"].startswith("FSD301 save-sharded-state: [rank 1, found on rank 0]")


def test_a_rank_that_never_arrives_is_named_and_nobody_waits_longer_than_the_bound(results):
    rank0, rank1 = (by_job["None:late_rank_is_named"] for by_job in results)
    assert rank0["other"] is None and rank1["other"] is None, (rank0, rank1)
    assert len(rank0["value"]) == 1 and "rank(s) [1] did not reach the first forward within 1 s" in rank0["value"][0]
    assert rank1["value"] == []


def test_one_rank_violating_stops_every_rank_when_rank0_hosts_the_store():
    """Plain ``init_process_group``: the store dies with rank 0, which is the violator.

    Rank 1 is blocked in the next all-gather until rank 0's process is gone; the finding then
    comes from the copy rank 0 left on this machine, not from gloo's "Connection closed".
    """
    with tempfile.TemporaryDirectory() as tmp:
        per_rank = run_script_ranks(SCENARIO_FILE, "rank0_saves_sharded", tmp, timeout_s=90)
    for rank, result in enumerate(per_rank):
        assert not result["hung"] and result["exitcode"] != 0, result
    assert "FSDPContractError: FSD301 save-sharded-state: [rank 0]" in per_rank[0]["output"]
    assert "FSDPContractError: FSD301 save-sharded-state: [rank 1, found on rank 0]" in per_rank[1]["output"]


def test_scenario_table_covers_every_runtime_check():
    codes = {code for code, _ in VIOLATIONS.values()} | {"FSD101"} | set(RAISE_ONLY.values())
    checks = {name[3:6] for name in os.listdir(os.path.join(os.path.dirname(scenarios.__file__), "..", "..",
                                                            "runtime_checks")) if name.startswith("fsd")}
    assert {f"FSD{c}" for c in checks} - codes == {"FSD106"}  # CUDA only: see test_api.py
