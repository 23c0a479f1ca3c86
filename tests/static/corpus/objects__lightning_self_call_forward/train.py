import lightning as L
from lightning.pytorch.strategies import ModelParallelStrategy

from data import TokenDataModule
from speech_lm import SpeechLM


def main():
    strategy = ModelParallelStrategy(data_parallel_size=8, tensor_parallel_size=1)
    trainer = L.Trainer(accelerator="cuda", devices=8, strategy=strategy, max_steps=5000, precision="bf16-true")
    trainer.fit(SpeechLM(), datamodule=TokenDataModule("data/tokens.bin"))


if __name__ == "__main__":
    main()
