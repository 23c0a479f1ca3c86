from models import ModelG
from trainer import Trainer


def test_fsdp2_resume():
    Trainer(ModelG(), fsdp2=True, load_path="g.pt")
