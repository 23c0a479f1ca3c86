import lightning.pytorch as pl
from lightning.pytorch.strategies import ModelParallelStrategy

from module import SpeechLM


def main(loader):
    trainer = pl.Trainer(devices=2, strategy=ModelParallelStrategy(data_parallel_size=2, tensor_parallel_size=1))
    trainer.fit(SpeechLM(), loader)


if __name__ == "__main__":
    main([])
