class TrainableOps:
    def __init__(self, model):
        self.model = model

    def __call__(self, x):
        return self.model.forward(x)
