class Actor:
    def __init__(self, module, optimizer):
        self.module = module
        self.optimizer = optimizer

    def update(self, batch):
        loss = self.module.forward(batch).sum()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
