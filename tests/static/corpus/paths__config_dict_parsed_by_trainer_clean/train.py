from config import FSDPOptions
from dist_utils import init_distributed
from model import Transformer
from trainer import Trainer


def main(loader, out: str):
    mesh = init_distributed()
    trainer = Trainer(Transformer(32000, 1024, 12), {"fsdp": FSDPOptions(sync_module_states=True)}, mesh)
    trainer.fit(loader, out)
