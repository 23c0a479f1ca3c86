import torch
from torch.distributed.device_mesh import init_device_mesh
from transformers import AutoModelForCausalLM

from shard import shard_language_model


def main():
    mesh = init_device_mesh("cuda", (torch.distributed.get_world_size(),))
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B", dtype=torch.bfloat16)
    model = shard_language_model(model, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    batch = torch.randint(0, 1000, (2, 16), device="cuda")
    loss = model(input_ids=batch, labels=batch).loss
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    main()
