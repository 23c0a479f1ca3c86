import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from transformers import AutoModelForCausalLM

from parallelize import parallelize_model


def main(model_name: str, steps: int):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    model = AutoModelForCausalLM.from_pretrained(model_name, torch_dtype=torch.float32, trust_remote_code=True)
    model = parallelize_model(model, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for _ in range(steps):
        batch = torch.randint(0, 32000, (4, 512), device="cuda")
        loss = model(input_ids=batch, labels=batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main("meta-llama/Llama-3.2-1B", 100)
