TRAINERS = {}


def register_trainer(name):
    def wrap(cls):
        TRAINERS[name] = cls
        return cls

    return wrap


def build_trainer(cfg):
    return TRAINERS[cfg.trainer](cfg)
