import torch
from torch.distributed.fsdp import fully_shard
from model import LM


def setup(ckpt_path):
    with torch.device("meta"):
        model = LM(with_vision=True)
    model = model.to_empty(device="cuda")
    if ckpt_path:
        model.vision.init_tensors()
        model.load_state_dict(torch.load(ckpt_path), strict=False)
    else:
        model.init_weights()
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    return model


def main(ckpt_path=None):
    model = setup(ckpt_path)
    opt = torch.optim.AdamW(model.parameters())
    t = torch.randint(0, 16, (2, 4))
    img = torch.randn(2, 4, 8)
    model(t, img).sum().backward()
    opt.step()
