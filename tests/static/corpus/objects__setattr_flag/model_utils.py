def is_actor(model):
    """Whether `model` is the actor: the trainer marks it, the wrapper's class does not say."""
    return getattr(model, "is_actor", False)
