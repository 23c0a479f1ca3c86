class DiffusionTask:
    """A training objective: not a module. Its `forward` runs the model it is given."""

    def __init__(self, mask_token_id: int):
        self.mask_token_id = mask_token_id

    def forward(self, model, batch):
        return model(batch)

    def loss(self, model, batch, output):
        return output.float().pow(2).mean()
