"""Runtime check FSD202: an optimizer that holds tensors other than the sharded parameters."""

import weakref
from typing import Any, List, Optional

from fsdp_lint.runtime import location, naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


def _param_name(fsdp_param: Any) -> str:
    module, name = torch_shims.param_owner(fsdp_param)
    return torch_shims.param_fqn(fsdp_param) or naming.param_path(module, name)


def _count(optimizer: Any) -> int:
    return sum(len(group["params"]) for group in optimizer.param_groups)


class OptimizerBeforeShard(RuntimeCheck):
    """The optimizer was built before ``fully_shard``, or after a forward, and updates stale tensors.

    ## What it does
    ``fully_shard`` replaces every parameter of a unit with a new DTensor ``nn.Parameter``. The
    guard remembers which original parameter each DTensor replaced. When an optimizer is
    constructed, and again at its first ``step()`` (and whenever its number of parameters
    changes), every tensor in its ``param_groups`` is looked up: an original that fully_shard
    has replaced means the optimizer was built before sharding; a plain tensor that is a
    unit's *unsharded* parameter means it was built after a forward, while the root kept its
    parameters all-gathered.

    ## Why it matters
    Those tensors never receive gradients: ``step()`` is a silent no-op for them, the loss
    does not move, and the optimizer keeps full-size copies alive.

    ## When
    At construction when the stale tensors are already known, at the latest at the first
    ``step()``. Later steps cost one length comparison.
    """

    code = "FSD202"
    name = "optimizer-before-shard"

    def __init__(self, guard: Any) -> None:
        super().__init__(guard)
        self._checked: "weakref.WeakKeyDictionary[Any, int]" = weakref.WeakKeyDictionary()
        self._built_at: "weakref.WeakKeyDictionary[Any, Optional[str]]" = weakref.WeakKeyDictionary()

    def on_optimizer_init(self, optimizer: Any) -> None:
        self._built_at[optimizer] = location.here()
        self._check(optimizer)

    def on_step(self, optimizer: Any) -> None:
        count = _count(optimizer)
        if self._checked.get(optimizer) != count:
            self._check(optimizer)
            self._checked[optimizer] = count

    def _check(self, optimizer: Any) -> None:
        replaced: List[Any] = []
        unsharded: List[Any] = []
        by_unsharded = None
        for group in optimizer.param_groups:
            for param in group["params"]:
                fsdp_param = self.guard.replaced.get(param)
                if fsdp_param is not None:
                    replaced.append(fsdp_param)
                    continue
                if torch_shims.is_dtensor(param):
                    continue
                if by_unsharded is None:
                    by_unsharded = {
                        id(torch_shims.unsharded_param(fp)): fp
                        for state in torch_shims.iter_states()
                        for fp in torch_shims.fsdp_params(state)
                        if torch_shims.unsharded_param(fp) is not None
                    }
                fsdp_param = by_unsharded.get(id(param))
                if fsdp_param is not None:
                    unsharded.append(fsdp_param)
        total = _count(optimizer)
        kind = type(optimizer).__name__
        built = self._built_at.get(optimizer)
        built_at = f" (built at {built})" if built else ""
        if replaced:
            self.report(
                f"{kind}{built_at} holds {len(replaced)} of its {total} parameters as the tensors fully_shard "
                f"has since replaced with DTensors (e.g. `{_param_name(replaced[0])}`): the optimizer "
                "was built before fully_shard. They never receive gradients, so step() silently "
                "leaves the model unchanged.",
                "create the optimizer after every fully_shard call: "
                "`fully_shard(...)` for each block and the root, then `optim = "
                f"{kind}(model.parameters(), ...)`.",
                key=f"{kind}:{_param_name(replaced[0])}",
                rank_local=False,
            )
        if unsharded:
            self.report(
                f"{kind}{built_at} holds {len(unsharded)} of its {total} parameters as plain unsharded tensors "
                f"(e.g. `{_param_name(unsharded[0])}`): it was built after a forward, while the root "
                "kept its parameters all-gathered. They never receive gradients, so step() silently "
                "leaves those parameters unchanged.",
                "create the optimizer right after fully_shard, before the first forward (or call "
                "`model.reshard()` before building it) so that it holds the DTensor parameters.",
                key=f"{kind}:{_param_name(unsharded[0])}",
                rank_local=False,
            )
