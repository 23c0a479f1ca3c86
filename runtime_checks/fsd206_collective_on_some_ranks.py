"""Runtime check FSD206: a collective-backed call that not every rank of its group enters."""

from typing import Any, Sequence

from fsdp_lint.runtime.check import RuntimeCheck


class CollectiveOnSomeRanks(RuntimeCheck):
    """A collective-backed call entered by some ranks only: the ones that entered would wait forever.

    ## What it does
    At the entry of each call that communicates with every rank of a group (``DTensor.full_tensor()``,
    ``get_model_state_dict``/``get_optimizer_state_dict``/``get_state_dict`` with a full state
    dict, ``set_*_state_dict`` with a full state dict or ``broadcast_from_rank0``, ``dcp.save``,
    ``dcp.async_save``, ``dcp.load``, and ``clip_grad_norm_``/``get_total_norm`` over DTensor
    gradients), the ranks of the group meet through the c10d store before any of them
    communicates. When a rank waits there while another rank of the group waits at another
    such call, sits in another collective, or has stopped, every rank reports FSD206 naming the
    ranks that did not come and where they are. A rank that is still running its own code is
    waited for, as the collective itself would wait for it. The first forward of a root is
    such a meeting point too: a rank that meets it while another rank sits in a collective
    reports the same way.

    ## Why it matters
    Each of these calls is an all-gather, broadcast or all-reduce under the hood. When only
    some ranks enter it (``if rank == 0:``), NCCL hangs until its timeout (ten minutes and
    more, with no hint of where) and gloo aborts with a size mismatch or "Connection closed",
    after the other ranks ran on into their next collective.

    ## When
    At the call, before it communicates: one or two round trips to the store per call when
    every rank arrives (the last rank to arrive does not wait at all).
    """

    code = "FSD206"
    name = "collective-on-some-ranks"

    def on_collective(self, call: str, ranks: Sequence[int]) -> None:
        meeting = self.guard.agreement.meet(call, ranks)
        if meeting.reason == "diverged":
            self._report(f"{call} communicates with ranks {list(ranks)}", meeting)

    def on_ranks_diverged(self, what: str, meeting: Any) -> None:
        self._report(f"{what} is a point every rank reaches together", meeting)

    def _report(self, what: str, meeting: Any) -> None:
        absent = sorted(meeting.absent)
        elsewhere = "; ".join(f"rank {rank}: {text}" for rank, text in sorted(meeting.absent.items()))
        self.report(
            f"{what}, but rank(s) {absent} did not come ({elsewhere}). The ranks in a collective that "
            "others never join wait forever (NCCL, until its timeout) or abort (gloo).",
            "call it on every rank of the group, and keep only the rank-0 work (writing, logging) "
            "inside a rank-dependent branch.",
            key=f"{what}:{absent}",
        )
