from abc import ABC, abstractmethod


class BaseTrainer(ABC):
    def __init__(self, model, epochs: int) -> None:
        self.model = model
        self.epochs = epochs

    @abstractmethod
    def train_one_epoch(self, epoch: int, loader, optimizer) -> float:
        ...

    def fit(self, loader, optimizer) -> None:
        for epoch in range(self.epochs):
            self.train_one_epoch(epoch, loader, optimizer)
