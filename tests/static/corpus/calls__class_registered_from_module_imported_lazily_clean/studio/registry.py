class Register(dict):
    """Model classes register themselves by name: `@MODEL_REGISTER("dit")`."""

    def __call__(self, name):
        def add(cls):
            if name in self:
                raise KeyError(f"{name} registered twice")
            self[name] = cls
            return cls

        return add


MODEL_REGISTER = Register()
