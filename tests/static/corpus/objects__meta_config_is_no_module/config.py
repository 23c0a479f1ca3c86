from typing import Optional

from pydantic import BaseModel, ConfigDict


class AttentionConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n_heads: int = 16
    head_dim: int = 128
    rope_theta: float = 1e6


class ModelConfig(BaseModel):
    """What the model is: built into the module by `build()`; it holds no tensor."""

    model_config = ConfigDict(extra="forbid")
    vocab_size: int = 151936
    hidden_size: int = 2048
    n_layers: int = 24
    attention: AttentionConfig = AttentionConfig()
    compile_cfg: Optional[bool] = None

    def build(self):
        from model import CausalLM

        return CausalLM(self)
