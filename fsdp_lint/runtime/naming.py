"""Name modules by their path in the model (``layers.3.attn``), the way users read their code.

Only used when a finding is reported, so a walk over the model is affordable here.
"""

from typing import Iterable, Optional

import torch.nn as nn

from fsdp_lint.runtime import torch_shims


def _containers() -> Iterable[nn.Module]:
    """FSDP modules, roots first: the deepest path is found from the topmost container."""
    mapping = torch_shims.get("module_state_mapping")
    modules = list(mapping.keys()) if mapping is not None else []
    roots = []
    for module in modules:
        state = torch_shims.state_of(module)
        if state is not None and torch_shims.is_root(state):
            roots.append(module)
    return roots + [m for m in modules if not any(m is r for r in roots)]


def module_path(module: nn.Module, root: Optional[nn.Module] = None) -> str:
    """``layers.3.attn``, or ``<root Model>`` for the root itself."""
    best: Optional[str] = None
    for container in [root] if root is not None else _containers():
        for name, sub in container.named_modules():
            if sub is module and (best is None or len(name) > len(best)):
                best = name
                break
    if best:
        return best
    return f"<root {class_name(module)}>"


def param_path(module: nn.Module, param_name: str, root: Optional[nn.Module] = None) -> str:
    path = module_path(module, root)
    return param_name if path.startswith("<root") else f"{path}.{param_name}"


def describe(module: nn.Module) -> str:
    """``layers.3`` (Block), or "the root module (Model)"."""
    path = module_path(module)
    if path.startswith("<root"):
        return f"the root module ({class_name(module)})"
    return f"`{path}` ({class_name(module)})"


def class_name(module: nn.Module) -> str:
    """The user's class name, not FSDP's dynamic ``FSDP<Cls>`` subclass."""
    fsdp_module = torch_shims.get("FSDPModule")
    cls = type(module)
    if fsdp_module is not None and issubclass(cls, fsdp_module):
        for base in cls.__mro__[1:]:
            if base is not fsdp_module and not issubclass(base, fsdp_module):
                return base.__name__
    return cls.__name__
