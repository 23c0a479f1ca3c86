"""Runtime check FSD108: ranks that sharded different modules or on other meshes, or run units in another order."""

import zlib
from typing import Any, Dict, Optional, Sequence

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck

Plan = Dict[str, Dict[str, Any]]


def _mesh_text(mesh: Any) -> str:
    names = f" {tuple(mesh.mesh_dim_names)}" if mesh.mesh_dim_names else ""
    return f"{mesh.device_type} mesh {tuple(mesh.mesh.shape)}{names} over ranks {mesh.mesh.flatten().tolist()}"


def _first_difference(plans: Dict[int, Plan]) -> Optional[str]:
    """What differs between the ranks' plans, in words; None when they agree.

    The order of the fully_shard calls is not compared: FSDP issues its collectives in the
    order the forward reaches the units, which ``on_unit_reached`` compares instead.
    """
    ranks = sorted(plans)
    paths = sorted(set().union(*plans.values()))
    for path in paths:
        having = [rank for rank in ranks if path in plans[rank]]
        if len(having) < len(ranks):
            missing = [rank for rank in ranks if rank not in having]
            return f"`{path}` is a fully_shard unit on rank(s) {having} but not on rank(s) {missing}"
    for field, label in (("cls", "class"), ("numel", "parameter count"), ("params", "set of parameters"),
                         ("mesh", "mesh")):
        for path in paths:
            values = {rank: plans[rank][path].get(field) for rank in ranks}
            if len(set(values.values())) > 1:
                by_rank = "; ".join(f"rank {rank}: {value}" for rank, value in values.items())
                return f"unit `{path}` has a different {label} on each rank ({by_rank})"
    return None


def _parameters(state: Any) -> str:
    """The unit's parameters (name and full shape), as a short digest comparable across ranks."""
    described = sorted(
        f"{torch_shims.param_owner(fp)[1]}:{tuple(torch_shims.sharded_param(fp).shape)}"
        for fp in torch_shims.fsdp_params(state)
    )
    return f"{len(described)} parameters, digest {zlib.crc32(';'.join(described).encode()):08x}"


class RankDivergentSharding(RuntimeCheck):
    """Ranks sharded different modules or with different meshes, or run the units in another order.

    ## What it does
    At the first forward of each root, before FSDP's first all-gather, every rank describes
    its sharding plan (each unit's path, class, parameters and mesh) and publishes it through
    the c10d store. Every rank compares all the plans and, if they differ, raises the same
    error naming the first difference. Then, during that first forward, the ranks meet at each
    unit's forward, before its all-gather: a rank that runs another unit than the others is
    reported. The order of the ``fully_shard`` calls themselves does not matter.

    ## Why is this bad?
    FSDP2 assumes every rank runs the same program (SPMD): each unit issues its own
    all-gather and reduce-scatter, matched across ranks by order. Ranks that shard
    differently issue different collectives: NCCL hangs until its watchdog kills the job
    (10 minutes by default), gloo fails with a size mismatch or "Connection closed", or
    collectives of different units pair up and corrupt the parameters silently. The cause is
    usually a rank-dependent branch (``if rank == 0``) or per-rank configuration, while
    sharding or in the forward.

    ## Example
    ```python
    for i, block in enumerate(model.layers):
        if i % world_size == rank:      # each rank shards "its" blocks
            fully_shard(block)
    fully_shard(model)
    ```

    ## Use instead
    ```python
    for block in model.layers:          # the same units on every rank
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
    ```

    ## When
    Once per root, at its first forward; the exchange waits at most $FSDP_LINT_RUNTIME_TIMEOUT
    seconds for the slowest rank and never issues a collective. The order is followed during
    that first forward only: one store round trip per unit.
    """

    code = "FSD108"
    name = "rank-divergent-sharding"

    def on_root_init(self, root: nn.Module, states: Sequence[Any]) -> None:
        plan: Plan = {}
        paths = {id(module): name or f"<root {naming.class_name(root)}>" for name, module in root.named_modules()}
        for state in states:
            modules = torch_shims.state_modules(state)
            groups = torch_shims.param_groups(state)
            path = "+".join(paths.get(id(m), naming.class_name(m)) for m in modules)
            plan[path] = {
                "cls": "+".join(naming.class_name(m) for m in modules),
                "numel": sum(torch_shims.sharded_param(fp).numel() for fp in torch_shims.fsdp_params(state)),
                "params": _parameters(state),
                "mesh": "; ".join(_mesh_text(torch_shims.group_mesh(g)) for g in groups),
            }
        self.guard.facts["sharding_plan"] = plan

    def on_ranks_agreed(self, records: Sequence[Dict[str, Any]]) -> None:
        plans = {r["rank"]: r["facts"]["sharding_plan"] for r in records if "sharding_plan" in r.get("facts", {})}
        if len(plans) < 2:
            return
        difference = _first_difference(plans)
        if difference is None:
            return
        self.report(
            f"the ranks sharded the model differently: {difference}. FSDP's collectives would not match "
            "across ranks: a hang, a crash inside the collective, or silently mixed parameters.",
            "shard the same modules with the same mesh on every rank: no rank-dependent branches "
            "around fully_shard.",
            key=difference,
            rank_local=False,
        )

    def on_unit_reached(self, state: Any) -> None:
        """In the first forward, every rank must run the units in the same order: FSDP all-gathers in that order."""
        path = naming.module_path(torch_shims.state_modules(state)[0])
        meeting = self.guard.agreement.meet(f"the forward of `{path}`", torch_shims.state_ranks(state))
        if meeting.reason != "diverged":
            return
        self.guard.reaching = False  # one report per forward, also in warn mode
        elsewhere = "; ".join(f"rank {rank}: {text}" for rank, text in sorted(meeting.absent.items()))
        self.report(
            f"the ranks run the units' forwards in a different order: this rank runs `{path}` next, rank(s) "
            f"{sorted(meeting.absent)} do not ({elsewhere}). FSDP all-gathers each unit's parameters as its "
            "forward starts, so the all-gathers of different units would pair up: mixed parameters or a hang.",
            "call the units in the same order on every rank (no rank-dependent control flow in forward).",
            key="forward-order",
        )
