import torch
from torch import nn


def reset_output_head(model, std: float = 0.02):
    """Fine-tuning on a new label set: a freshly initialised output head."""
    weight = torch.empty(model.output.out_features, model.output.in_features)
    model.output.weight = nn.Parameter(nn.init.normal_(weight, std=std))  # expect: FSD204
