from torch import nn


class DecoderLayer(nn.Module):
    def __init__(self, dim: int, n_heads: int):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(dim)
        self.self_attn = nn.MultiheadAttention(dim, n_heads, batch_first=True)
        self.post_attention_layernorm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.input_layernorm(x)
        x = x + self.self_attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.post_attention_layernorm(x))


class DecoderModel(nn.Module):
    def __init__(self, vocab_size: int, dim: int, n_layers: int):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim, dim // 64) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.norm(h)


class LlamaForCausalLM(nn.Module):
    """Llama 3.2 1B/3B: the output projection reuses the input embedding."""

    def __init__(self, vocab_size: int, dim: int, n_layers: int):
        super().__init__()
        self.model = DecoderModel(vocab_size, dim, n_layers)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)
        self.lm_head.weight = self.model.embed_tokens.weight

    def forward(self, input_ids):
        return self.lm_head(self.model(input_ids))
