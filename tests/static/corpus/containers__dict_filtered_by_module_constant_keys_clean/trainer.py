import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.nn.functional as F
from torch.distributed.checkpoint.state_dict import get_model_state_dict, get_optimizer_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

from checkpoint_io import MODEL_STATE, OPTIMIZER_STATE, save_extra_state
from model import Decoder


class Trainer:
    def __init__(self, vocab: int, dim: int, n_layers: int, n_heads: int, lr: float):
        dist.init_process_group("nccl")
        torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
        self.mesh = init_device_mesh("cuda", (dist.get_world_size(),))
        self.model = Decoder(vocab, dim, n_layers, n_heads)
        for layer in self.model.layers:
            fully_shard(layer, mesh=self.mesh)
        fully_shard(self.model, mesh=self.mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)
        self.step = 0
        self.tokens_seen = 0

    def train_step(self, tokens, labels):
        logits = self.model(tokens)
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        self.step += 1
        self.tokens_seen += tokens.numel()
        return loss.detach()

    def progress(self) -> dict:
        return {"step": self.step, "tokens_seen": self.tokens_seen}

    def save_checkpoint(self, directory: str):
        state = {
            MODEL_STATE: get_model_state_dict(self.model),
            OPTIMIZER_STATE: get_optimizer_state_dict(self.model, self.optimizer),
            **self.progress(),
        }
        dcp.save({MODEL_STATE: state[MODEL_STATE], OPTIMIZER_STATE: state[OPTIMIZER_STATE]}, checkpoint_id=directory)
        trainer_state = {}
        for key, value in state.items():
            if key in (MODEL_STATE, OPTIMIZER_STATE):
                continue
            trainer_state[key] = value
        if dist.get_rank() == 0:
            save_extra_state(trainer_state, directory)
