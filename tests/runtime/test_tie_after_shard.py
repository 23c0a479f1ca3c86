"""A tie made after `fully_shard` (AReaL's archon `parallelize_*`: the helper builds the units,
the caller then assigns `model.output.weight = model.tok_embeddings.weight`), on torch's real
FSDP2 (2 gloo ranks). FSDP's lazy initialisation adopts the assigned parameter in the output's
unit too (`FSDPParam.reset_sharded_param`): where the tied rows shard evenly, both units hold
the one tensor and training matches a model tied before sharding, whatever the units; where they
do not (a vocabulary the ranks do not divide), the output's unit pads a copy and the two train
apart, again whatever the units. So the hazard is the tie's place (after `fully_shard`) and the
sharding's evenness, not the split into units FSD104 looks for."""

import os

from tests.runtime.distributed import run_ranks

FLOW = os.path.join(os.path.dirname(__file__), "tie_after_shard.py")


def test_tie_after_shard_holds_only_where_the_rows_shard_evenly() -> None:
    results = run_ranks(FLOW, "tie_after_shard")
    assert all(result["ok"] for result in results), results
    found = results[0]["value"]
    for layout in ("split", "grouped", "root"):
        assert found[f"{layout}/16"] == {"forward_uses_embedding": True, "matches_tied_reference": True}, (layout, found)
        assert found[f"{layout}/17"] == {"forward_uses_embedding": False, "matches_tied_reference": False}, (layout, found)
