import lightning as L
import torch
from lightning.fabric.strategies import ModelParallelStrategy

from net import Net
from parallel import parallelize_fn


def main(fabric):
    model = Net()
    model = fabric.setup_module(model)
    optimizer = fabric.setup_optimizers(torch.optim.AdamW(model.parameters(), lr=1e-3))
    batch = torch.ones(4, 8)
    loss = model(batch)
    fabric.backward(loss)
    optimizer.step()
    model.half()
    if fabric.global_rank == 0:
        torch.save(model.state_dict(), "model.pt")


if __name__ == "__main__":
    strategy = ModelParallelStrategy(parallelize_fn=parallelize_fn, data_parallel_size=2, tensor_parallel_size=1)
    fabric = L.Fabric(devices=2, strategy=strategy)
    fabric.launch(main)
