from __future__ import annotations

from typing import Optional, Set

from astroid import nodes

from fsdp_lint.analysis.context import MetaState
from fsdp_lint.analysis.flow import Flow, Point
from fsdp_lint.analysis.paths import describe_run
from fsdp_lint.analysis.values import Obj, Optimizer
from fsdp_lint.engine.rule import Invalid, Rule, Valid


class MetaInitIncomplete(Rule):
    """A model built on the meta device and sharded trains before its parameters get values.

    ## What it does
    Reports the first forward call (`model(batch)`, or of a module that holds the model) or
    `optimizer.step()` of a model that was constructed under `with torch.device("meta"):` (or
    accelerate's `init_empty_weights()`) and sharded, when some run to it neither allocated it
    with `model.to_empty(device=...)` and then initialised it (`init_weights()`,
    `reset_parameters()`, `apply(init_fn)`, ...) nor loaded weights into it
    (`load_state_dict(..., assign=True)`, `set_model_state_dict`, `dcp.load`): a load on one arm
    of `if cfg.ckpt:` leaves the other arm's runs uninitialised, and the finding names them
    ("when `cfg.ckpt` is false"). The model's state follows it across calls, returns and the
    methods of the object that holds it. Handing the model to other code in between (which may
    initialise it) counts as initialising it.

    ## Why is this bad?
    Meta tensors have no storage. Without `to_empty` the first forward fails inside FSDP's lazy
    initialisation. With `to_empty` but no initialisation, parameters and buffers (RoPE
    frequencies, norms' weights) hold whatever bytes the allocator returned: the loss is NaN or,
    worse, plausible but wrong, and each rank holds different garbage.

    ## Example
    ```python
    with torch.device("meta"):
        model = Transformer(config)
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    model.to_empty(device="cuda")
    loss = model(batch).sum()
    ```

    Use instead:
    ```python
    model.to_empty(device="cuda")
    with torch.no_grad():
        model.init_weights()      # or reset_parameters() on every module, or load a checkpoint
    loss = model(batch).sum()
    ```
    """

    code = "FSD105"
    name = "meta-init-incomplete"
    severity = "error"
    message = "`{target}` was built on the meta device and {state} before this {use}"
    help = "after fully_shard: `{target}.to_empty(device=...)`, then initialise (`init_weights()` / `reset_parameters()`) or load weights (`set_model_state_dict`)"
    # the meta memory of a model is that of every module it holds: `self.inner` found short in the
    # `forward` a call of the model runs is that call's mistake, reported once, in there
    SUBJECT_HOLDS_PARTS = True

    VALID = [
        Valid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            with torch.device("meta"):
                model = Transformer()
            for layer in model.layers:
                fully_shard(layer)
            fully_shard(model)
            model.to_empty(device="cuda")
            model.init_weights()
            optimizer = torch.optim.AdamW(model.parameters())
            model(batch).sum().backward()
            optimizer.step()
            """
        ),
        Valid(
            """
            import torch
            from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict
            from torch.distributed.fsdp import fully_shard

            def build(full_sd, batch):
                with torch.device("meta"):
                    model = Transformer()
                fully_shard(model)
                set_model_state_dict(model, full_sd, options=StateDictOptions(full_state_dict=True))
                return model(batch)

            def build_loaded(sharded_sd, batch):
                with torch.device("meta"):
                    model = Transformer()
                fully_shard(model)
                model.load_state_dict(sharded_sd, assign=True)
                return model(batch)

            def build_resumed_or_fresh(ckpt, batch):
                with torch.device("meta"):
                    model = Transformer()
                fully_shard(model)
                model.to_empty(device="cuda")
                if ckpt:
                    set_model_state_dict(model, torch.load(ckpt), options=StateDictOptions(full_state_dict=True))
                else:
                    model.init_weights()
                return model(batch)

            def build_by_framework(strategy, batch):
                with torch.device("meta"):
                    model = Transformer()
                fully_shard(model)
                strategy.materialize(model)      # unknown code: may initialise
                return model(batch)
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.distributed.fsdp import fully_shard

            def main(batch):
                with torch.device("meta"):
                    model = Transformer()
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)
                model.to_empty(device="cuda")
                optimizer = torch.optim.AdamW(model.parameters())
                loss = model(batch).sum()              # expect: FSD105
                loss.backward()
                optimizer.step()
            """
        ),
        Invalid(
            {
                "parallel.py": """
                    from torch.distributed.fsdp import fully_shard

                    def apply_fsdp(model):
                        for block in model.blocks:
                            fully_shard(block)
                        fully_shard(model)
                    """,
                "train.py": """
                    import torch
                    from accelerate import init_empty_weights
                    from parallel import apply_fsdp

                    with init_empty_weights():
                        model = Transformer()
                    apply_fsdp(model)
                    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
                    optimizer.step()                        # expect: FSD105
                    """,
            }
        ),
        Invalid(
            """
            import torch
            from torch.distributed.checkpoint.state_dict import set_model_state_dict
            from torch.distributed.fsdp import fully_shard

            def main(batch, ckpt):
                with torch.device("meta"):
                    model = Transformer()
                fully_shard(model)
                model.to_empty(device="cuda")
                if ckpt:
                    set_model_state_dict(model, torch.load(ckpt))
                return model(batch)                     # expect: FSD105
            """
        ),
    ]

    def __init__(self, reporter):
        super().__init__(reporter)
        self._reported: Set[Obj] = set()  # this walk reports a model's first use only

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        if not flow.meta_objects:
            return
        # each module the callee may be, on the runs on which it is that one (`model` bound to what
        # a builder returns: the text model on some runs, a wrapper on the others)
        run = [(built, runs) for option, runs in flow.objects_on_runs(node.func) for built in flow.meta_objects_run_by(option)]
        for built, runs in dict.fromkeys(run):
            self._check_use(node, built, flow, "forward", flow.point(runs))
        if not run and isinstance(node.func, nodes.Attribute) and node.func.attrname == "step":
            receiver = flow.value(node.func.expr)
            for owner, runs in receiver.held() if isinstance(receiver, Optimizer) else ():  # each on the runs it holds that one
                built = flow.meta_object(owner, inside=True)
                if built is not None:
                    self._check_use(node, built, flow, "`optimizer.step()`", flow.point(runs))

    def on_function_end(self, flow: Flow) -> None:
        self._reported = set()

    def _check_use(self, node: nodes.Call, model: Obj, flow: Flow, use: str, point: Optional[Point] = None) -> None:
        found = flow.materialised(model, point)
        if found is None or model in self._reported:
            return
        state, run = found
        if state >= MetaState.INITIALISED:
            return
        if not (flow.may_be_sharded(model) or flow.has_sharded_descendant_here(model)):
            return
        self._reported.add(model)
        target = flow.shown(model)
        state_text = _state(state, describe_run(run))
        self.report(node, self.message.format(target=target, state=state_text, use=use), help=self.help.format(target=target), subject=model)


def _state(state: MetaState, when: str) -> str:
    """What happened to the model, on the runs `when` describes (every run where it is empty)."""
    if state == MetaState.EMPTY:
        return f"`to_empty` gave it uninitialised memory, but {f'when {when}, ' if when else ''}nothing initialised or loaded its parameters"
    return f"{f'when {when}, ' if when else ''}was never materialised (`to_empty`) nor loaded"
