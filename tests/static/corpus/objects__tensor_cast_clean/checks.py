import torch


def compare_with_reference(model, reference: torch.Tensor, bias: torch.Tensor) -> None:
    """After a training step, check this rank's shard against the reference in its precision."""
    local = model.weight._local_tensor.to(reference.dtype)
    rows = local.shape[0]
    torch.testing.assert_close(local, reference[:rows])
    torch.testing.assert_close(model.proj.bias.data.double(), bias)
