from __future__ import annotations

from typing import List, Tuple

from astroid import nodes

from fsdp_lint.analysis.block_layout import holds_repeated_blocks, part_of_larger_plan
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.values import Fresh, Obj, Value
from fsdp_lint.engine.rule import Invalid, Rule, Valid


class RootOnlySharding(Rule):
    """`fully_shard(model)` with no block sharded first makes the whole model one FSDP unit.

    ## What it does
    Reports `fully_shard(model)` on a model that holds repeated blocks (two or more children of
    one class that own parameters and hold modules of their own, in an `nn.ModuleList`,
    `nn.ModuleDict` or `nn.Sequential` anywhere inside it, or a Hugging Face pretrained model;
    an MLP `nn.Sequential(nn.Linear, nn.ReLU(), nn.Linear)` holds layers, not blocks) when none
    of its submodules was
    sharded before, in the same function or in the helpers it called. A submodule sharded beside
    others of the same model (`fully_shard(self.final_layer)` after the blocks) is one unit of a
    plan, not the whole model.

    ## Why is this bad?
    Each `fully_shard` call makes one communication unit. With only the root sharded, the forward
    all-gathers every parameter of the model at once: peak memory is the full unsharded model, as
    if FSDP were not used, and nothing overlaps communication with computation. Training is
    numerically correct, so nothing tells you.

    ## Example
    ```python
    model = Transformer(config)
    fully_shard(model)
    ```

    Use instead:
    ```python
    model = Transformer(config)
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    ```
    A single leaf layer (`nn.Linear`) or a deliberately flat small model is not reported.
    """

    code = "FSD101"
    name = "root-only-sharding"
    severity = "warning"
    message = "`fully_shard({target})` makes the whole model one unit: no block of `{target}` was sharded first"
    help = "shard each block first (`for block in {target}.layers: fully_shard(block)`), then the root"

    VALID = [
        Valid(
            """
            import torch.nn as nn
            from torch.distributed.fsdp import fully_shard

            class Transformer(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.layers = nn.ModuleList([Block() for _ in range(8)])

            model = Transformer()
            for layer in model.layers:
                fully_shard(layer)
            fully_shard(model)

            head = nn.Linear(8, 8)
            fully_shard(head)
            """
        ),
        Valid(
            {
                "model.py": """
                    import torch.nn as nn

                    class Transformer(nn.Module):
                        def __init__(self):
                            super().__init__()
                            self.blocks = nn.ModuleList([Block() for _ in range(8)])
                    """,
                "parallel.py": """
                    from torch.distributed.fsdp import fully_shard

                    def shard_blocks(model):
                        for name, module in model.named_modules():
                            if isinstance(module, Block):
                                fully_shard(module)
                    """,
                "train.py": """
                    from torch.distributed.fsdp import fully_shard
                    from model import Transformer
                    from parallel import shard_blocks

                    model = Transformer()
                    shard_blocks(model)
                    fully_shard(model)
                    """,
            }
        ),
        Valid(
            """
            from torch.distributed.fsdp import fully_shard
            from mylib import apply_policy

            model = Transformer()
            apply_policy(model)      # unknown code may have sharded the blocks: stay silent
            fully_shard(model)
            """
        ),
        Valid(
            """
            import torch.nn as nn
            from torch.distributed.fsdp import fully_shard

            class FinalLayer(nn.Module):
                def __init__(self, dim, out, lora_dim=0):
                    super().__init__()
                    self.norm = nn.LayerNorm(dim, elementwise_affine=False)
                    self.proj = nn.Linear(dim, out)
                    if lora_dim:
                        self.modulation = nn.Sequential(nn.SiLU(), nn.Linear(dim, lora_dim), nn.Linear(lora_dim, 2 * dim))
                    else:
                        self.modulation = nn.Sequential(nn.SiLU(), nn.Linear(dim, 2 * dim))

            class DiT(nn.Module):
                def __init__(self, depth, dim, out):
                    super().__init__()
                    self.t_embedder = nn.Sequential(nn.Linear(256, dim), nn.SiLU())
                    self.blocks = nn.ModuleList([DiTBlock(dim) for _ in range(depth)])
                    self.final_layer = FinalLayer(dim, out, lora_dim=256)

                def shard(self, mesh):
                    for block in self.blocks:
                        fully_shard(block, mesh=mesh)
                    fully_shard(self.final_layer, mesh=mesh)   # one unit beside the blocks', not the model
                    fully_shard(self.t_embedder, mesh=mesh)

            def parallelize(net, mesh):
                net.shard(mesh)
                fully_shard(net, mesh=mesh)
            """
        ),
        Valid(
            """
            import torch.nn as nn
            from torch.distributed.fsdp import fully_shard

            class TimestepEmbedding(nn.Module):
                def __init__(self, dim):
                    super().__init__()
                    self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(dim, dim))   # one layer: no blocks

            embedding = TimestepEmbedding(256)
            fully_shard(embedding)
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            from torch import nn
            from torch.distributed.fsdp import fully_shard

            class Transformer(nn.Module):
                def __init__(self, n):
                    super().__init__()
                    self.layers = nn.ModuleList([Block() for _ in range(n)])

            def main():
                model = Transformer(8)
                model.to("cuda")
                fully_shard(model)   # expect: FSD101
            """
        ),
        Invalid(
            """
            from transformers import AutoModelForCausalLM
            from torch.distributed.fsdp import fully_shard

            model = AutoModelForCausalLM.from_pretrained("gpt2")
            fully_shard(model)       # expect: FSD101
            """
        ),
        Invalid(
            {
                "models/__init__.py": "",
                "models/llama.py": """
                    from torch import nn

                    class Llama(nn.Module):
                        def __init__(self):
                            super().__init__()
                            self.layers = nn.ModuleDict({str(i): Block() for i in range(32)})
                    """,
                "train.py": """
                    from torch.distributed.fsdp import fully_shard
                    from models.llama import Llama

                    def build():
                        model = Llama()
                        fully_shard(model, reshard_after_forward=False)    # expect: FSD101
                        return model
                    """,
            }
        ),
    ]

    def __init__(self, reporter):
        super().__init__(reporter)
        self._roots: List[Tuple[nodes.Call, nodes.NodeNG, Value]] = []

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        module = flow.sharded_module(node)
        if module is None:
            return
        target = flow.value(module)
        if isinstance(target, Obj):
            if flow.has_sharded_descendant_here(target) or any(flow.contains(target, Obj(root)) for root in flow.escaped):
                return  # blocks sharded first, or handed to code that may have sharded them
        elif not isinstance(target, Fresh):
            return
        if holds_repeated_blocks(flow.project, target.cls):
            self._roots.append((node, module, target))

    def on_function_end(self, flow: Flow) -> None:
        """Decided at the end of the walk: a block sharded after its root is FSD102's finding."""
        for node, module, target in self._roots:
            if isinstance(target, Obj) and (
                any(flow.contains(target, e.target, strict=True) for e in flow.events) or part_of_larger_plan(flow, target)
            ):
                continue
            name = flow.shown(target) if isinstance(target, Obj) else module.as_string()
            self.report(node, self.message.format(target=name), help=self.help.format(target=name))
        self._roots = []
