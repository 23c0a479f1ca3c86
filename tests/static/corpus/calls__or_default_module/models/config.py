from dataclasses import dataclass

import torch


@dataclass
class DenseConfig:
    vocab_size: int = 151936
    hidden_size: int = 2048
    intermediate_size: int = 6144
    num_hidden_layers: int = 28
    tie_word_embeddings: bool = True


@dataclass
class FSDPConfig:
    param_dtype: torch.dtype = torch.bfloat16
    reduce_dtype: torch.dtype = torch.float32
    fp32_lm_head: bool = False
    reshard_after_forward: bool = True
