class Trainer:
    def __init__(self, model, checkpointer):
        self.model = model
        self.checkpointer = checkpointer

    def save_checkpoint(self, step):
        self.checkpointer.save(self.model, step)
