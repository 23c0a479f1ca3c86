import torch
import transformers

from teacher import load_teacher
from tokens import add_pad_token


def main(path):
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    teacher = load_teacher(path)
    if tokenizer.pad_token is None:
        add_pad_token(tokenizer, teacher)
    batch = tokenizer(["a", "bb"], padding=True, return_tensors="pt")
    with torch.no_grad():
        teacher(**batch)


main("meta-llama/Llama-2-7b-hf")
