from torch import nn
from torch.distributed.fsdp import fully_shard


class Planner:
    def __init__(self, model, mesh):
        self.model = model
        self.mesh = mesh
        self.done = set()

    def candidate(self, module):
        if id(module) in self.done:
            return False
        if isinstance(module, nn.ModuleList):
            return self.children(module)
        self.split(module)
        fully_shard(module, mesh=self.mesh)
        self.done.add(id(module))
        return True

    def split(self, module):
        for child in module.children():
            if id(child) not in self.done:
                self.boundary(child)

    def boundary(self, module):
        if isinstance(module, nn.ModuleList):
            return self.children(module)
        return self.candidate(module)

    def children(self, module):
        wrapped = False
        for child in module.children():
            wrapped = self.boundary(child) or wrapped
        return wrapped


def wrap(model, mesh):
    return Planner(model, mesh).candidate(model) and model
