from transformers import AutoTokenizer

from modeling import CausalLM


def load_model_and_tokenizer(cfg):
    """The model to train, and the tokenizer that goes with its vocabulary."""
    tokenizer = AutoTokenizer.from_pretrained(cfg.tokenizer_path)
    model = CausalLM(len(tokenizer), cfg.dim, cfg.n_layers)
    return model, tokenizer
