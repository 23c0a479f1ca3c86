import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

from vidgen.models.wan import WanModel
from vidgen.runtime.fsdp import apply_fsdp2


class Trainer:
    def __init__(self, config):
        self.config = config
        self.model = apply_fsdp2(WanModel(config["dim"], config["n_blocks"]), torch.bfloat16)
        self.optimizer = torch.optim.AdamW(self.model.denoiser_module().parameters(), lr=config["lr"])

    def fit(self, loader):
        for step, (latents, target) in enumerate(loader):
            loss = torch.nn.functional.mse_loss(self.model.denoise(latents.cuda()), target.cuda())
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            if step % self.config["save_every"] == 0:
                self.save(f"{self.config['out']}/denoiser_{step}.pt")

    def save(self, path):
        options = StateDictOptions(full_state_dict=True, cpu_offload=True)
        state = get_model_state_dict(self.model.denoiser_module(), options=options)
        if dist.get_rank() == 0:
            torch.save(state, path)


def main(config, loader):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    Trainer(config).fit(loader)
