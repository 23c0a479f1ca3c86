from __future__ import annotations

from typing import Tuple

from astroid import nodes

from fsdp_lint.analysis.collectives import COLLECTIVE_FUNCTIONS, Collective
from fsdp_lint.analysis.conditions import may_call_under_rank_test
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.engine.rule import Invalid, RelatedNode, Rule, ScreenedFile, Valid


class CollectiveOnSomeRanks(Rule):
    """A collective-backed call inside a branch that only some ranks take: the job hangs.

    ## What it does
    Reports, inside `if rank == 0:` (or `dist.get_rank()`, `local_rank`, `is_main_process`, a
    variable computed from one of them, or a `@rank_zero_only` function), calls that communicate
    with every rank: `DTensor.full_tensor()`, `get_model_state_dict` / `get_state_dict` /
    `set_model_state_dict` with a full state dict, `dcp.save` / `dcp.load`,
    `torch.nn.utils.clip_grad_norm_` over the parameters of a sharded model, and the forward of a
    module that `fully_shard` sharded (its pre-forward hook all-gathers the unit's parameters:
    `if rank == 0: generate(model, prompt)`). A call of a function
    of the project that makes one of these on every run that does its work is reported at that
    call, naming the collective and where it is: `save_checkpoint()` whose body calls `dcp.save`,
    `evaluate()` whose loop runs the forward on each batch it gets to (past `if i >= max_batches:
    break` or `if batch is None: continue`; a run that gets to none did no evaluation). One the
    function makes only where a test of the run or of what it was given passes (`if cfg.gather:`,
    `if isinstance(value, DTensor):` with a plain copy otherwise) is not.

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

    def on_function_end(self, flow: Flow) -> None:
        for issued in flow.collectives:
            if issued.rank_test is None:
                continue
            text = issued.rank_test.text
            text = text if len(text) <= 60 else text[:57] + "..."
            self.report(issued.node, self.message.format(what=_described(issued), test=text), related=_where(issued))


def _described(issued: Collective) -> str:
    """The collective, and the function that issues it when this call runs one that does."""
    if issued.at is issued.node:
        return issued.what
    frame = issued.at.frame()  # a comprehension's call: the function the comprehension is in
    where = "a module's top level" if isinstance(frame, nodes.Module) else "a lambda" if isinstance(frame, nodes.Lambda) else f"`{frame.name}()`"
    return f"{issued.what} (in {where}, which this call runs)"


def _where(issued: Collective) -> Tuple[RelatedNode, ...]:
    """The collective's own call, when it lies in a function this call runs."""
    return () if issued.at is issued.node else ((issued.at, f"{issued.what} issued here"),)
