import torch.nn as nn

from pkg.sharding import setup_fsdp


def build_net():
    return nn.Sequential(*[nn.Linear(8, 8) for _ in range(4)])


class Engine:
    def __init__(self, config):
        self.config = config
        self.models = {}
        self.build_models()

    def build_models(self):
        for name, model_config in self.config["models"].items():
            model = build_net()
            if model_config["ema"]:
                ema_model = build_net()
            model = setup_fsdp(model)
            if model_config["ema"]:
                ema_model = setup_fsdp(ema_model)
                self.models[name + "_ema"] = ema_model
            self.models[name] = model
