import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from trainer.checkpointing import load_resume_state
from trainer.nets import Denoiser


class Trainer:
    def __init__(self, config):
        self.config = config

    def setup(self):
        model = Denoiser(self.config["dim"], self.config["depth"])
        if self.config["fsdp2"]:
            dist.init_process_group("nccl")
            mesh = init_device_mesh("cuda", (dist.get_world_size(),))
            policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
            for block in model.blocks:
                fully_shard(block, mesh=mesh, mp_policy=policy)
            fully_shard(model, mesh=mesh, mp_policy=policy)
        if self.config["resume_dir"]:
            load_resume_state(model, self.config["resume_dir"])
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=self.config["lr"])

    def fit(self, loader):
        self.setup()
        for x, target in loader:
            loss = torch.nn.functional.mse_loss(self.model(x), target)
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
