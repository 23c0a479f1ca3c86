from base_trainer import BaseTrainer


class TrainerGen2(BaseTrainer):
    def train_one_epoch(self, epoch: int, loader, optimizer) -> float:
        total = 0.0
        for x in loader:
            loss = self.model.forward(x).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            total += loss.item()
        return total
