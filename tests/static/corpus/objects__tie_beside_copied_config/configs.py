from dataclasses import dataclass


@dataclass
class TextConfig:
    vocab_size: int = 32000
    hidden_size: int = 512
    num_layers: int = 4


@dataclass
class VLMConfig:
    vision_dim: int = 256
    patch_size: int = 14
    hidden_size: int = 0  # copied from the language model's config once it is built
    vocab_size: int = 0
