import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.device_mesh import init_device_mesh

from titan.models.llama import Transformer
from titan.parallelisms import models_parallelize_fns


def build_optimizer(model, job_config):
    return torch.optim.AdamW(model.parameters(), lr=job_config.lr, weight_decay=0.1)


def main(job_config):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    world_mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    model = Transformer(job_config.vocab_size, job_config.dim, job_config.n_layers)
    optimizer = build_optimizer(model, job_config)  # expect: FSD202
    models_parallelize_fns[job_config.model_name](model, world_mesh, job_config)
    for step, (tokens, labels) in enumerate(job_config.loader):
        logits = model(tokens.cuda())
        loss = F.cross_entropy(logits.flatten(0, 1), labels.cuda().flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    dist.destroy_process_group()
