from config import FSDP2Options, ParallelConfig
from dist_utils import init_distributed
from model import Transformer
from trainer import Trainer


def main(loader, out: str):
    mesh = init_distributed()
    trainer = Trainer(Transformer(32000, 1024, 12), ParallelConfig(fsdp2=FSDP2Options()), mesh)
    trainer.fit(loader, out)
