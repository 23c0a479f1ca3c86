from __future__ import annotations

from typing import Optional

from astroid import nodes

from fsdp_lint.analysis import known_apis
from fsdp_lint.analysis.conditions import may_call_under_rank_test, rank_only_branch
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.values import Obj, Params
from fsdp_lint.engine.rule import Invalid, Rule, ScreenedFile, Valid

CLIP_GRAD_NORM = frozenset({"torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad.clip_grad_norm_", "torch.nn.utils.get_total_norm"})
# The last names of the functions `_collective` reports on an unsharded (or unknown) model, by
# their qualified names. `clip_grad_norm_` is reported only over a model that may hold shards,
# whose files the analysis reaches whatever they mention.
COLLECTIVE_FUNCTIONS = known_apis.DCP_COLLECTIVES | known_apis.STATE_DICT_GETTERS | known_apis.STATE_DICT_SETTERS


class CollectiveOnSomeRanks(Rule):
    """A collective-backed call inside a branch that only some ranks take: the job hangs.

    ## What it does
    Reports, inside `if rank == 0:` (or `dist.get_rank()`, `local_rank`, `is_main_process`, a
    variable computed from one of them, or a `@rank_zero_only` function), calls that communicate
    with every rank: `DTensor.full_tensor()`, `get_model_state_dict` / `get_state_dict` /
    `set_model_state_dict` with a full state dict, `dcp.save` / `dcp.load`, and
    `torch.nn.utils.clip_grad_norm_` over the parameters of a sharded model.

    ## Why is this bad?
    Each of these is an all-gather, broadcast or all-reduce under the hood. Every rank of the
    process group must enter it; when only rank 0 does, rank 0 waits for the others forever (until
    the NCCL timeout kills the job, often after 30 minutes and with no hint of where), while the
    other ranks run ahead into the next collective.

    ## Example
    ```python
    if dist.get_rank() == 0:
        state = {k: v.full_tensor() for k, v in model.state_dict().items()}
        torch.save(state, "model.pt")
    ```

    Use instead:
    ```python
    state = {k: v.full_tensor() for k, v in model.state_dict().items()}   # every rank gathers
    if dist.get_rank() == 0:
        torch.save(state, "model.pt")                                       # one rank writes
    ```
    `dcp.save(..., no_dist=True)` and DCP calls given their own `process_group=` are not reported.
    """

    code = "FSD206"
    # Files that mention none of these (nor fully_shard) are not parsed: see fsdp_lint/engine/prefilter.py.
    SCAN_NAMES = frozenset({"full_tensor", "torch.distributed.checkpoint"})
    name = "collective-on-some-ranks"
    severity = "error"
    message = "{what} is a collective, but only the ranks where `{test}` holds call it: the other ranks never join and the job hangs"
    help = "call it on every rank, and keep only the rank-0 work (writing, logging) inside the branch"

    VALID = [
        Valid(
            """
            import torch
            import torch.distributed as dist
            import torch.distributed.checkpoint as dcp
            from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
            from torch.distributed.fsdp import fully_shard

            fully_shard(model)
            options = StateDictOptions(full_state_dict=True, cpu_offload=True)
            state = get_model_state_dict(model, options=options)
            full = {k: v.full_tensor() for k, v in model.state_dict().items()}
            if dist.get_rank() == 0:
                torch.save(state, "model.pt")
                print(len(full))
                sharded = get_model_state_dict(model)          # sharded: no communication
                dcp.save(state, checkpoint_id="local", no_dist=True)
            if local_rank == -1:                               # not distributed: every process
                dcp.save(state, checkpoint_id="ckpt")
            if rank == 0 and os.path.exists(path):
                raise ValueError(path)                         # a raise, not a rank-0-only rest
            dcp.save(state, checkpoint_id=path)
            """
        ),
        Valid(
            """
            import torch
            import torch.distributed as dist
            from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, set_model_state_dict
            from torch.distributed.fsdp import fully_shard

            def train(model, rank):
                reference = Reference()
                fully_shard(model)
                if rank == 0:
                    torch.nn.utils.clip_grad_norm_(reference.parameters(), 1.0)   # not sharded

            def broadcast_init(model):
                full = {}
                if dist.get_rank() == 0:      # rank 0 reads its plain, not yet sharded model
                    full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
                fully_shard(model)
                set_model_state_dict(model, full, options=StateDictOptions(full_state_dict=True, broadcast_from_rank0=True))
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            import torch.distributed as dist
            from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
            from torch.distributed.fsdp import fully_shard

            def save(model, path):
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)
                is_main = dist.get_rank() == 0
                if is_main:
                    sd = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))   # expect: FSD206
                    torch.save(sd, path)
                    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)                           # expect: FSD206
                if not is_main:
                    return
                weights = {name: p.full_tensor() for name, p in model.named_parameters()}              # expect: FSD206
            """
        ),
        Invalid(
            {
                "ckpt.py": """
                    import torch.distributed.checkpoint as dcp

                    def save_checkpoint(state, path):
                        dcp.save(state, checkpoint_id=path)
                    """,
                "train.py": """
                    import torch.distributed.checkpoint as dcp
                    from lightning.pytorch.utilities import rank_zero_only

                    class Trainer:
                        def on_epoch_end(self):
                            if self.global_rank == 0:
                                dcp.save(self.state, checkpoint_id="epoch")     # expect: FSD206

                        @rank_zero_only
                        def export(self):
                            dcp.load(self.state, checkpoint_id="epoch")         # expect: FSD206
                    """,
            }
        ),
    ]

    @classmethod
    def may_fire_in(cls, file: ScreenedFile) -> bool:
        return may_call_under_rank_test(file, frozenset({"full_tensor"}), COLLECTIVE_FUNCTIONS)

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        what = _collective(node, flow)
        if what is None:
            return
        test = rank_only_branch(flow)
        if test is None:
            return
        text = test.as_string()
        text = text if len(text) <= 60 else text[:57] + "..."
        self.report(node, self.message.format(what=what, test=text))


def _collective(node: nodes.Call, flow: Flow) -> Optional[str]:
    """A description of the collective that `node` runs, or None."""
    func = node.func
    if isinstance(func, nodes.Attribute) and func.attrname == "full_tensor" and not node.args:
        return "`.full_tensor()`"
    qname = flow.qualified_name(func)
    dcp = known_apis.dcp_function(qname)
    if dcp is not None:
        if any(k.arg in ("no_dist", "process_group") for k in node.keywords or []):
            return None
        return f"`dcp.{dcp}`"
    state = known_apis.state_dict_function(qname)
    if state is not None:
        if flow.full_state_dict(node) is not True:
            return None
        module = flow.value(node.args[0]) if node.args else None
        if isinstance(module, Obj) and flow.provably_unsharded(module):
            return None  # gathering a plain module's tensors needs no communication
        return f"`{state}` with a full state dict"
    if qname in CLIP_GRAD_NORM and node.args:
        params = flow.value(node.args[0])
        if isinstance(params, Params) and flow.may_hold_shards(params.owner):
            return f"`clip_grad_norm_` over the DTensor gradients of `{params.owner.display}`"
    return None
