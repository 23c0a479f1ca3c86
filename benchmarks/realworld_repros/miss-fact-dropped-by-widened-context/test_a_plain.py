from models import ModelA, ModelB, ModelC, ModelD, ModelE, ModelF
from trainer import Trainer


def test_a():
    Trainer(ModelA(), load_path="a.pt")


def test_b():
    Trainer(ModelB(), load_path="b.pt")


def test_c():
    Trainer(ModelC(), load_path="c.pt")


def test_d():
    Trainer(ModelD(), load_path="d.pt")


def test_e():
    Trainer(ModelE(), load_path="e.pt")


def test_f():
    Trainer(ModelF(), load_path="f.pt")
