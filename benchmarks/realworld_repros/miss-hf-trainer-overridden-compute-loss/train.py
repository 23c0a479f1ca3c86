import torch
import transformers
from torch.distributed.fsdp import fully_shard

from kd_trainer import KDTrainer


def load_teacher(path):
    teacher = transformers.AutoModelForCausalLM.from_pretrained(path, torch_dtype=torch.bfloat16)
    for layer in teacher.model.layers:
        fully_shard(layer)
    fully_shard(teacher)
    teacher.requires_grad_(False)
    return teacher


def main(path, args, data):
    teacher = load_teacher(path)
    student = transformers.AutoModelForCausalLM.from_pretrained(path)
    trainer = KDTrainer(teacher_model=teacher, model=student, args=args, train_dataset=data)
    trainer.train()


main("meta-llama/Llama-2-7b-hf", transformers.TrainingArguments("out"), [])
