from torch import nn


class GPT(nn.Module):
    """What every model of the registry shares: the parameter groups the optimizer takes."""

    def get_param_groups(self):
        return {
            "matrix_params": [p for p in self.layers.parameters() if p.ndim == 2],
            "vector_params": [p for p in self.layers.parameters() if p.ndim != 2],
            "head_params": list(self.embed.parameters()) + list(self.lm_head.parameters()),
        }
