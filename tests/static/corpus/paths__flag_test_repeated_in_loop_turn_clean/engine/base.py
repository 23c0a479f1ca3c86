import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy

from engine.nets import build_net
from engine.sharding import setup_fsdp


class BaseEngine:
    def __init__(self, config):
        dist.init_process_group("nccl")
        self.config = config
        self.mesh = init_device_mesh("cuda", (dist.get_world_size(),))
        self.policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        self.models = {}
        self.build_models()

    def build_models(self):
        """One model per configured role, and, where the role asks for it, its EMA copy."""
        for name, model_config in self.config["models"].items():
            model = build_net(model_config)
            if model_config["ema"]:
                ema_model = build_net(model_config)
                ema_model.load_state_dict(model.state_dict())
                ema_model.requires_grad_(False)
            model = setup_fsdp(model, self.mesh, self.policy)
            if model_config["ema"]:
                ema_model = setup_fsdp(ema_model, self.mesh, self.policy)
                self.models[name + "_ema"] = ema_model
            self.models[name] = model
