from trainer import Trainer


class TrainActor:
    def init(self, args):
        self._trainer = Trainer(args)
        self._trainer.init_model()

    def save_for_serving(self, path):
        self._trainer.save_for_serving(path)
