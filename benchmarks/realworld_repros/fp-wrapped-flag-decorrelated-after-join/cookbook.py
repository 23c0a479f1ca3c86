import sys

from wrapper import TrainModel


def train():
    model = TrainModel()
    if len(sys.argv) > 1:
        for adapter in ["a", "b"]:
            model.resume_from_checkpoint(sys.argv[1], resume_only_model=len(sys.argv) > 2)
    model._lazy_wrap_model()


if __name__ == "__main__":
    train()
