import torch


class Pipeline:
    @classmethod
    def from_pretrained(cls, name):
        pipe = cls()
        pipe.transformer = torch.nn.Linear(4, 4)
        return pipe
