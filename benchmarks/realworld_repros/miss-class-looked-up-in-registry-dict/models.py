from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj(x)


class GPT(nn.Module):
    def __init__(self, dim, num_layers):
        super().__init__()
        self.embed = nn.Embedding(100, dim)
        self.layers = nn.ModuleList([Block(dim) for _ in range(num_layers)])
        self.lm_head = nn.Linear(dim, 100, bias=False)

    def get_param_groups(self):
        return {
            "matrix_params": [p for p in self.layers.parameters() if p.ndim == 2],
            "vector_params": [p for p in self.layers.parameters() if p.ndim != 2],
            "head_params": list(self.embed.parameters()) + list(self.lm_head.parameters()),
        }

    def forward(self, ids):
        x = self.embed(ids)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(x)


MODEL_REGISTRY = {"gpt": GPT}
