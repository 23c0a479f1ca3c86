from torch import nn

from gpt.models.base import GPT


class OlmoBlock(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.attn_norm = nn.RMSNorm(dim)
        self.attn = nn.MultiheadAttention(dim, dim // 64, batch_first=True)
        self.mlp_norm = nn.RMSNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim, bias=False), nn.SiLU(), nn.Linear(4 * dim, dim, bias=False))

    def forward(self, x):
        h = self.attn_norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.mlp_norm(x))


class Olmo(GPT):
    def __init__(self, config):
        super().__init__()
        self.embed = nn.Embedding(config.vocab_size, config.dim)
        self.layers = nn.ModuleList([OlmoBlock(config.dim) for _ in range(config.num_layers)])
        self.lm_head = nn.Linear(config.dim, config.vocab_size, bias=False)

    def forward(self, ids):
        x = self.embed(ids)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(x)
