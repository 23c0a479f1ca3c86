import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_model_state_dict
from torch.distributed.device_mesh import init_device_mesh
from transformers import AutoConfig, AutoModelForSequenceClassification

from models.parallel import parallelize_model
from models.registry import resolve_model_class


class PolicyWorkerImpl:
    """One rank of the policy. The controller starts one per GPU by class path (a Ray actor), so
    nothing in this package constructs it."""

    def __init__(self, config, tokenizer):
        self.cfg = config
        self.tokenizer = tokenizer
        dist.init_process_group(backend="nccl")
        self.rank = dist.get_rank()
        model_config = AutoConfig.from_pretrained(config["model_name"], torch_dtype=torch.float32)
        if config.get("reward_model", False):
            model_class = AutoModelForSequenceClassification
            model_config.num_labels = 1
        else:
            model_class = resolve_model_class(model_config.model_type)
        self.model = model_class.from_config(model_config)
        mesh = init_device_mesh("cuda", (dist.get_world_size(),))
        self.model = parallelize_model(self.model, mesh, param_dtype=torch.bfloat16)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=config["lr"], weight_decay=0.01)

    def train(self, batch):
        self.model.train()
        loss = self.model(**batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg["max_grad_norm"])
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.detach()

    def get_logprobs(self, batch):
        self.model.eval()
        with torch.no_grad():
            logits = self.model(**batch).logits
        return torch.log_softmax(logits.float(), dim=-1)

    def save_checkpoint(self, path):
        dcp.save({"model": get_model_state_dict(self.model)}, checkpoint_id=path)
