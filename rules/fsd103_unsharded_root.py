from __future__ import annotations

from typing import List, Optional

from fsdp_lint.analysis.flow import Flow, ShardEvent
from fsdp_lint.analysis.known_apis import PRETRAINED_MODEL
from fsdp_lint.analysis.values import Obj, is_wildcard
from fsdp_lint.engine.rule import Invalid, Rule, Valid


class UnshardedRoot(Rule):
    """Blocks are sharded but the root never is, while the root owns parameters of its own.

    ## What it does
    Reports a function that builds a model, shards some of its submodules (usually the
    transformer blocks) and never shards the model itself, when no other code can still shard
    it (the function keeps it to itself, or its sharding plan is already final there: an
    optimizer was built over it or it ran a forward), and when the model's class gives it
    parameters outside those submodules: an `nn.Embedding`, `nn.Linear` head, norm or
    `nn.Parameter` assigned in its `__init__`, or any Hugging Face pretrained model of which only
    blocks were sharded. A root that owns no parameters (a wrapper whose children are all sharded)
    is not reported.

    ## Why is this bad?
    Parameters that no `fully_shard` unit manages stay plain, replicated tensors. Their gradients
    are never reduced across ranks: each rank updates its embedding and output head with its own
    local gradient, and the replicas silently drift apart while the loss still goes down.

    ## Example
    ```python
    model = Transformer(config)      # tok_embeddings, layers, norm, output
    for block in model.layers:
        fully_shard(block)
    optimizer = torch.optim.AdamW(model.parameters())
    ```

    Use instead:
    ```python
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)               # the root's unit manages embeddings, norm and head
    ```
    """

    code = "FSD103"
    name = "unsharded-root"
    severity = "error"
    message = "submodules of `{target}` are sharded but `{target}` itself never is: its own parameters ({owned}) are never reduced across ranks"
    help = "call `fully_shard({target})` after sharding its blocks"

    VALID = [
        Valid(
            """
            import torch
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            class Transformer(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.embed = nn.Embedding(10, 4)
                    self.layers = nn.ModuleList([Block() for _ in range(4)])

            class Wrapper(nn.Module):
                def __init__(self, model):
                    super().__init__()
                    self.model = model

            def full():
                model = Transformer()
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model)

            def wrapper():
                wrapped = Wrapper(Transformer())      # owns no parameters itself
                fully_shard(wrapped.model)

            def returned():
                model = Transformer()
                for layer in model.layers:
                    fully_shard(layer)
                return model                          # the caller may shard the root

            def embed_sharded_too():
                model = Transformer()
                for layer in model.layers:
                    fully_shard(layer)
                fully_shard(model.embed)
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            class Transformer(nn.Module):
                def __init__(self, n):
                    super().__init__()
                    self.tok_embeddings = nn.Embedding(32000, 512)
                    self.layers = nn.ModuleList([Block() for _ in range(n)])
                    self.output = nn.Linear(512, 32000)

            def main(batch):
                model = Transformer(8)
                for layer in model.layers:
                    fully_shard(layer)                                   # expect: FSD103
                optimizer = torch.optim.AdamW(model.parameters())
                model(batch).sum().backward()
                optimizer.step()
            """
        ),
        Invalid(
            {
                "parallel.py": """
                    from torch.distributed.fsdp import fully_shard

                    def shard_blocks(model):
                        for block in model.model.layers:
                            fully_shard(block)
                    """,
                "train.py": """
                    from transformers import AutoModelForCausalLM
                    from parallel import shard_blocks

                    def main():
                        model = AutoModelForCausalLM.from_pretrained("gpt2")
                        shard_blocks(model)                                     # expect: FSD103
                        model.train()
                    """,
            }
        ),
    ]

    def on_function_end(self, flow: Flow) -> None:
        for root, cls in sorted(flow.classes.items()):
            whole = Obj(root)
            if not flow.is_local(root) or not flow.is_module(whole):  # a plain holder of modules is no root to shard
                continue
            events = [e for e in flow.events if flow.contains(whole, e.target)]
            owned = self._unsharded_owned(flow, whole, cls, events) if events else None
            if owned:
                target = flow.shown(whole)
                fields = {"target": target, "owned": ", ".join(f"`{target}.{a}`" for a in owned)}
                self.report(events[-1].node, self.message.format(**fields), help=self.help.format(**fields))

    def _unsharded_owned(self, flow: Flow, whole: Obj, cls: str, events: List[ShardEvent]) -> Optional[List[str]]:
        # Code that receives the model may still shard it, unless training already started here.
        final = flow.plan_final(whole)
        if (whole.root in flow.escaped or whole.root in flow.stored) and final is None:
            return None
        if final is not None and {e.seq for e in events} == {final.seq} == {flow.project.instances.creating_call(whole.root[2])}:
            return None  # built, sharded and made final by one call: decided, and reported, in there
        if flow.may_be_sharded(whole):  # it, or a module that holds it (its parameters are in that unit)
            return None
        if cls == PRETRAINED_MODEL:
            # Only repeated blocks sharded: embeddings, final norm and head are left out.
            repeated = all(any(any(map(is_wildcard, name.attrs)) for name in flow.names_of(e.target)) for e in events)
            return ["embeddings and head"] if repeated else None
        owned = flow.project.class_facts(cls).param_attrs
        return [a for a in owned if not any(flow.contains(e.target, whole.child(a)) for e in events)] or None
