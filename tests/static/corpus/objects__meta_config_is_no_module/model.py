import torch
from safetensors.torch import load_file
from torch import nn
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


class DecoderLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        dim = config.hidden_size
        self.input_norm = nn.RMSNorm(dim)
        self.attn = nn.MultiheadAttention(dim, config.attention.n_heads, batch_first=True)
        self.post_norm = nn.RMSNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.input_norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.post_norm(x))


class CausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList([DecoderLayer(config) for _ in range(config.n_layers)])
        self.norm = nn.RMSNorm(config.hidden_size)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)

    def forward(self, input_ids, labels):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        logits = self.lm_head(self.norm(h))
        return nn.functional.cross_entropy(logits.flatten(0, 1).float(), labels.flatten())

    def fully_shard(self, mesh):
        mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        for layer in self.layers:
            fully_shard(layer, mesh=mesh, mp_policy=mp_policy)
        fully_shard(self, mesh=mesh, mp_policy=mp_policy)
        return self

    def from_hf(self, path: str) -> None:
        """The Hugging Face weights, full on every rank, each rank keeping its shards."""
        state = load_file(f"{path}/model.safetensors")
        set_model_state_dict(self, state, options=StateDictOptions(full_state_dict=True))
