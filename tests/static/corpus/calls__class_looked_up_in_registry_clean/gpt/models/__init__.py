from gpt.models.olmo import Olmo

MODEL_REGISTRY = {"olmo": Olmo}
