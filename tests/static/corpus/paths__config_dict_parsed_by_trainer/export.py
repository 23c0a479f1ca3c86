import torch


def export_full_weights(model, path):
    """Gather the full parameters on rank 0 and save them."""
    with model.summon_full_params(model, writeback=False, rank0_only=True):  # expect: FSD203
        torch.save({name: param.detach().cpu() for name, param in model.named_parameters()}, path)
