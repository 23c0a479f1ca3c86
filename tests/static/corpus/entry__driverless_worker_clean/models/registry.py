from transformers import AutoModelForCausalLM, AutoModelForImageTextToText

_VISION_LANGUAGE = {"gemma3", "qwen2_5_vl", "llava"}


def resolve_model_class(model_type: str):
    """The Auto class that builds a checkpoint of this family (VLMs need the image-text one)."""
    if model_type in _VISION_LANGUAGE:
        return AutoModelForImageTextToText
    return AutoModelForCausalLM
