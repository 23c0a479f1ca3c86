from external_optimizers import Lion, Muon, Shampoo

OPTIMIZERS = {"lion": Lion, "muon": Muon, "shampoo": Shampoo}


def register(name):
    def add(cls):
        OPTIMIZERS[name] = cls
        return cls
    return add
