class Register(dict):
    """Model classes register themselves by name: `@MODEL_REGISTER("wan_t2v")`."""

    def __call__(self, name):
        def add(cls):
            if name in self:
                raise KeyError(f"{name} registered twice")
            self[name] = cls
            return cls

        return add


MODEL_REGISTER = Register()


def build_model(config):
    return MODEL_REGISTER[config["model_name"]](config)
