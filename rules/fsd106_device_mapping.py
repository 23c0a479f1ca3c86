from __future__ import annotations

from typing import List

from astroid import nodes

from fsdp_lint.analysis import known_apis
from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.imported_code import creates_cuda_mesh, creates_nccl_group_without_device, is_script
from fsdp_lint.engine.rule import Invalid, Rule, Valid


class DeviceMapping(Rule):
    """An NCCL process group or CUDA device mesh set up without selecting this rank's GPU.

    ## What it does
    In a script (a module with `if __name__ == "__main__":`) that uses `fully_shard`, reports:
    `init_process_group("nccl")` without `device_id=` when neither the script nor the modules of
    the tree it imports ever select the device (`torch.cuda.set_device(local_rank)`,
    `with torch.cuda.device(...)`, `CUDA_VISIBLE_DEVICES`, `init_device_mesh(...)`, accelerate or
    Lightning objects); and `init_device_mesh("cuda", ...)` after the same function already used
    CUDA (`torch.cuda.current_device()`, `.cuda()`, `torch.cuda.synchronize()`) with no device
    selected.

    ## Why is this bad?
    FSDP2 allocates its shards and all-gather buffers on `torch.cuda.current_device()`. Unless each
    process selects its GPU, that is GPU 0 on every rank: the ranks of a node pile onto one GPU
    (out of memory), NCCL fails with `Duplicate GPU detected`, or collectives hang.
    `init_device_mesh("cuda", ...)` selects the GPU from `LOCAL_RANK` itself, but only when nothing
    has touched CUDA yet.

    ## Example
    ```python
    dist.init_process_group("nccl")
    model = Transformer().cuda()
    fully_shard(model)
    ```

    Use instead:
    ```python
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl", device_id=torch.device("cuda", local_rank))
    ```
    """

    code = "FSD106"
    name = "device-mapping"
    severity = "error"
    message = "{what} but this rank's GPU is never selected: every rank uses GPU 0"
    help = "call `torch.cuda.set_device(int(os.environ['LOCAL_RANK']))` first (and pass `device_id=` to init_process_group)"

    VALID = [
        Valid(
            """
            import os
            import torch
            import torch.distributed as dist
            from torch.distributed.fsdp import fully_shard

            def main():
                dist.init_process_group("nccl")
                torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
                fully_shard(Model().cuda())

            if __name__ == "__main__":
                main()
            """
        ),
        Valid(
            """
            import torch.distributed as dist
            from torch.distributed.device_mesh import init_device_mesh
            from torch.distributed.fsdp import fully_shard

            def main():
                dist.init_process_group("nccl")
                mesh = init_device_mesh("cuda", (8,))    # selects the GPU from LOCAL_RANK
                fully_shard(Model(), mesh=mesh)

            if __name__ == "__main__":
                main()
            """
        ),
        Valid(
            """
            import torch.distributed as dist
            from torch.distributed.fsdp import fully_shard

            def setup():                                 # a library function: callers select the device
                dist.init_process_group("nccl")
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            import torch.distributed as dist
            from torch.distributed.fsdp import fully_shard

            def main():
                dist.init_process_group(backend="nccl")              # expect: FSD106
                model = Model().cuda()
                fully_shard(model)

            if __name__ == "__main__":
                main()
            """
        ),
        Invalid(
            {
                "setup_utils.py": """
                    import torch

                    def report_memory():
                        return torch.cuda.memory_allocated()
                    """,
                "train.py": """
                    import torch
                    from torch.distributed.device_mesh import init_device_mesh
                    from torch.distributed.fsdp import fully_shard
                    from setup_utils import report_memory

                    def main():
                        print(torch.cuda.current_device())
                        mesh = init_device_mesh("cuda", (8,))          # expect: FSD106
                        fully_shard(Model(), mesh=mesh)
                        report_memory()

                    if __name__ == "__main__":
                        main()
                    """,
            }
        ),
    ]

    def __init__(self, reporter):
        super().__init__(reporter)
        self._cuda_used: List[nodes.Call] = []

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        func = node.func
        name = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", None)
        if name in known_apis.CUDA_INITIALISERS and "cuda" in func.as_string():
            self._cuda_used.append(node)
            return
        qname = flow.qualified_name(func)
        what = None
        if creates_nccl_group_without_device(node, qname):
            if not self._selected(flow, count_mesh=True):
                what = "the NCCL process group is created"
        elif creates_cuda_mesh(node, qname) and self._cuda_used:
            if not self._selected(flow, count_mesh=False):
                what = f"CUDA was already used (line {self._cuda_used[0].lineno}) when the device mesh is created, so it does not pick the GPU,"
        if what is not None:
            self.report(node, self.message.format(what=what))

    def on_function_end(self, flow: Flow) -> None:
        self._cuda_used = []

    def _selected(self, flow: Flow, count_mesh: bool) -> bool:
        """True unless this is a script using fully_shard whose setup path never selects a GPU."""
        module = flow.scope.root()
        if not is_script(module):
            return True
        path = flow.project.imported.setup_path(module) or ()
        if not any("fully_shard" in m.locals or _mentions_fully_shard(m) for m in path):
            return True
        return any(known_apis.selects_device(m, count_mesh) for m in path)


def _mentions_fully_shard(module: nodes.Module) -> bool:
    return any(
        (isinstance(n, nodes.Attribute) and n.attrname == "fully_shard") or (isinstance(n, nodes.Name) and n.name == "fully_shard")
        for n in module.nodes_of_class((nodes.Attribute, nodes.Name))
    )

