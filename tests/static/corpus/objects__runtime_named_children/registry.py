"""Where each architecture keeps its towers: dotted paths read from the config at run time."""

TOWERS = {
    "qwen2_vl": ("model.visual", "model.language_model"),
    "llava": ("vision_tower", "language_model.model"),
}


def _resolve_attr(obj, dotted_path):
    for part in dotted_path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def get_vision_encoder(model, model_type):
    vision_attr, _ = TOWERS[model_type]
    return _resolve_attr(model, vision_attr)


def get_language_model(model, model_type):
    _, language_attr = TOWERS[model_type]
    return _resolve_attr(model, language_attr)
