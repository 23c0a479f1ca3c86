from contextlib import nullcontext

from engine import Engine


def train_step(engine, micro_batches):
    last = len(micro_batches) - 1
    for index, x in enumerate(micro_batches):
        context = engine.no_sync() if index < last else nullcontext()
        with context:
            engine.forward_backward(x)
    engine.step_optimizer()


def main(micro_batches):
    engine = Engine()
    train_step(engine, micro_batches)
