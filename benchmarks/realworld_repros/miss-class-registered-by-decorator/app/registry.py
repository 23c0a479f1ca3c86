class Register(dict):
    """Classes register themselves by name with a decorator."""

    def __call__(self, name):
        def add(cls):
            self[name] = cls
            return cls

        return add


MODEL_REGISTER = Register()


def build_model(config):
    return MODEL_REGISTER[config["name"]](config)
