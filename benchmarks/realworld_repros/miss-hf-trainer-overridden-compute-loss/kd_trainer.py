import torch
import torch.nn.functional as F
from transformers import Trainer


class KDTrainer(Trainer):
    """Distils a frozen (sharded) teacher into the student that `Trainer` trains."""

    def __init__(self, teacher_model, **kwargs):
        super().__init__(**kwargs)
        self.teacher_model = teacher_model

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        inputs.pop("labels", None)
        with torch.no_grad():
            teacher_logits = self.teacher_model.forward(**inputs).logits
        student_logits = model(**inputs).logits
        return F.kl_div(F.log_softmax(student_logits, -1), F.log_softmax(teacher_logits, -1), log_target=True)
