"""Runtime check FSD108: ranks that sharded different modules, in another order, or on other meshes."""

import itertools
import weakref
from typing import Any, Dict, Optional, Sequence

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck

Plan = Dict[str, Dict[str, Any]]


def _mesh_text(mesh: Any) -> str:
    names = f" {tuple(mesh.mesh_dim_names)}" if mesh.mesh_dim_names else ""
    return f"{mesh.device_type} mesh {tuple(mesh.mesh.shape)}{names} over ranks {mesh.mesh.flatten().tolist()}"


def _first_difference(plans: Dict[int, Plan]) -> Optional[str]:
    """What differs between the ranks' plans, in words; None when they agree."""
    ranks = sorted(plans)
    paths = sorted(set().union(*plans.values()))
    for path in paths:
        having = [rank for rank in ranks if path in plans[rank]]
        if len(having) < len(ranks):
            missing = [rank for rank in ranks if rank not in having]
            return f"`{path}` is a fully_shard unit on rank(s) {having} but not on rank(s) {missing}"
    for field, label in (("cls", "class"), ("numel", "parameter count"), ("mesh", "mesh")):
        for path in paths:
            values = {rank: plans[rank][path][field] for rank in ranks}
            if len(set(values.values())) > 1:
                by_rank = "; ".join(f"rank {rank}: {value}" for rank, value in values.items())
                return f"unit `{path}` has a different {label} on each rank ({by_rank})"
    orders = {rank: sorted(plans[rank], key=lambda p: plans[rank][p]["order"]) for rank in ranks}
    if len({tuple(order) for order in orders.values()}) > 1:
        by_rank = "; ".join(f"rank {rank}: {', '.join(order)}" for rank, order in orders.items())
        return f"the ranks called fully_shard in a different order ({by_rank})"
    return None


class RankDivergentSharding(RuntimeCheck):
    """Ranks sharded different modules, in a different order, or with different meshes.

    ## What it does
    At the first forward of each root, before FSDP's first all-gather, every rank describes
    its sharding plan (each unit's path, class, parameter size and mesh, and the order of the
    ``fully_shard`` calls) and publishes it through the c10d store. Every rank compares all
    the plans and, if they differ, raises the same error naming the first difference.

    ## Why is this bad?
    FSDP2 assumes every rank runs the same program (SPMD): each unit issues its own
    all-gather and reduce-scatter, matched across ranks by order. Ranks that shard
    differently issue different collectives: NCCL hangs until its watchdog kills the job
    (10 minutes by default), gloo fails with a size mismatch or "Connection closed", or
    collectives of different units pair up and corrupt the parameters silently. The cause is
    usually a rank-dependent branch (``if rank == 0``), per-rank configuration, or iteration
    over an unordered collection (sets, ``os.listdir``) while sharding.

    ## Example
    ```python
    for i, block in enumerate(model.layers):
        if i % world_size == rank:      # each rank shards "its" blocks
            fully_shard(block)
    fully_shard(model)
    ```

    ## Use instead
    ```python
    for block in model.layers:          # the same units, in the same order, on every rank
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
    ```

    ## When
    Once per root, at its first forward; the exchange waits at most $FSDP_LINT_RUNTIME_TIMEOUT
    seconds for the slowest rank and never issues a collective.
    """

    code = "FSD108"
    name = "rank-divergent-sharding"

    def __init__(self, guard: Any) -> None:
        super().__init__(guard)
        self._counter = itertools.count()
        self._order: "weakref.WeakKeyDictionary[Any, int]" = weakref.WeakKeyDictionary()

    def on_sharded(self, group: Any, params: Sequence[nn.Parameter]) -> None:
        self._order[group] = next(self._counter)

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
                "mesh": "; ".join(_mesh_text(torch_shims.group_mesh(g)) for g in groups),
                "order": min((self._order.get(g, -1) for g in groups), default=-1),
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
            "run the same fully_shard calls, in the same order, with the same mesh on every rank: no "
            "rank-dependent branches or unordered iteration around fully_shard.",
            key=difference,
            rank_local=False,
        )
