def add_pad_token(tokenizer, model):
    """Give the tokenizer a pad token and the model an embedding row for it."""
    added = tokenizer.add_special_tokens({"pad_token": "[PAD]"})
    model.resize_token_embeddings(len(tokenizer))
    if added:
        rows = model.get_input_embeddings().weight.data
        rows[-added:] = rows[:-added].mean(dim=0, keepdim=True)
