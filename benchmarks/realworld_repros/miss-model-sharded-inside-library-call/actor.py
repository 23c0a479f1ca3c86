from nemo_automodel import NeMoAutoModelForCausalLM


class Actor:
    """The policy: built, parallelized and sharded (FSDP2) by the library."""

    def __init__(self, pretrain: str, distributed_setup):
        self.model = NeMoAutoModelForCausalLM.from_pretrained(pretrain, distributed_setup=distributed_setup)

    def logprobs(self, input_ids):
        return self.model.forward(input_ids=input_ids).logits.log_softmax(-1)
