def fwd_bwd_factory(scale):
    def fwd_bwd(model, x):
        loss = model.forward(x).sum() * scale
        loss.backward()
        return loss

    return fwd_bwd


class Computer:
    def __init__(self, model, batches):
        self.model = model
        self.batches = batches
        self.forward_backward = fwd_bwd_factory(1.0)

    def run(self):
        for x in self.batches:
            self.forward_backward(self.model, x)
