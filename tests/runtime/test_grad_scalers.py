"""FSD203 does not report `ShardedGradScaler` next to `fully_shard`: this is the evidence, on
torch's real FSDP2 (2 gloo ranks). An overflow in one rank's shard must make every rank skip the
step and halve the scale, with either scaler; a scaler that let one rank step would desynchronise
the replicas, which is the failure a lint rule would have to prevent."""

import os

from tests.runtime.distributed import run_ranks

FLOW = os.path.join(os.path.dirname(__file__), "grad_scalers.py")


def test_every_rank_skips_the_step_on_one_ranks_overflow() -> None:
    results = run_ranks(FLOW, "overflow_on_one_rank")
    assert all(result["ok"] for result in results), results
    skipped = {"stepped": False, "scale": 32768.0}  # the initial scale 65536, halved
    assert [result["value"] for result in results] == [{"sharded": skipped, "amp": skipped}] * 2
