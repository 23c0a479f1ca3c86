import torch.nn as nn


class ModelContainer:
    def __init__(self, model_list: list):
        self.model_list = model_list

    def __iter__(self):
        for model in self.model_list:
            yield model

    def __getitem__(self, index: int) -> nn.Module:
        return self.model_list[index]

    def __setitem__(self, index: int, model: nn.Module) -> None:
        self.model_list[index] = model

    def __len__(self) -> int:
        return len(self.model_list)
