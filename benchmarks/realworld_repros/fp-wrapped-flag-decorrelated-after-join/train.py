import sys

from wrapper import TrainModel


def main():
    model = TrainModel()
    for adapter in ["a", "b"]:
        model.resume(sys.argv[1] if len(sys.argv) > 1 else None)
    model._lazy_wrap_model()


if __name__ == "__main__":
    main()
