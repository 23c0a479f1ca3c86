import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy

from models.base import BaseModel


class DecoderLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.input_norm = nn.RMSNorm(config.hidden_size)
        self.attn = nn.MultiheadAttention(config.hidden_size, 16, batch_first=True)
        self.post_norm = nn.RMSNorm(config.hidden_size)
        self.up = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.down = nn.Linear(config.intermediate_size, config.hidden_size, bias=False)

    def forward(self, x):
        h = self.input_norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.down(nn.functional.silu(self.up(self.post_norm(x))))


class DenseModel(BaseModel):
    def __init__(self, config):
        super().__init__(config)
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleDict({str(i): DecoderLayer(config) for i in range(config.num_hidden_layers)})
        self.norm = nn.RMSNorm(config.hidden_size)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        if self.config.tie_word_embeddings:
            self.lm_head.weight = self.embed_tokens.weight

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers.values():
            h = layer(h)
        return self.lm_head(self.norm(h))

    def fully_shard(self, fsdp_config):
        mesh = init_device_mesh("cuda", (dist.get_world_size(),))
        mp_policy = MixedPrecisionPolicy(param_dtype=fsdp_config.param_dtype, reduce_dtype=fsdp_config.reduce_dtype)
        if fsdp_config.fp32_lm_head:
            head_policy = MixedPrecisionPolicy(param_dtype=torch.float32, reduce_dtype=torch.float32)
        else:
            head_policy = mp_policy
        for layer in self.layers.values():
            self._fully_shard(mesh, mp_policy, fsdp_config.reshard_after_forward, module=layer)
        self._fully_shard(mesh, mp_policy, fsdp_config.reshard_after_forward, module=self.embed_tokens)
        self._fully_shard(mesh, head_policy, fsdp_config.reshard_after_forward, module=self.lm_head)  # expect: FSD104
        self._fully_shard(mesh, mp_policy, reshard_after_forward=False)
        return self
