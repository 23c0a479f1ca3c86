class GRPOEngine:
    def __init__(self, model, ref_model, optimizer):
        self.model = model
        self.ref_model = ref_model
        self.optimizer = optimizer

    def train_step(self, input_ids):
        logits = self.model(input_ids).logits
        ref_logits = self.ref_model(input_ids).logits
        loss = (logits - ref_logits).pow(2).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
