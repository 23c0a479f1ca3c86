import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

from export import export_training_state, export_weights, save_hf_weights


class Trainer:
    def __init__(self, model, optimizer, output_dir: str, export_every: int = 1000):
        self.model = model
        self.optimizer = optimizer
        self.output_dir = output_dir
        self.export_every = export_every

    def train_step(self, tokens, labels):
        logits = self.model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss

    def fit(self, loader):
        for step, (tokens, labels) in enumerate(loader):
            self.train_step(tokens, labels)
            if step > 0 and step % self.export_every == 0:
                export_weights(self.model, f"{self.output_dir}/weights_{step}.pt")
        export_training_state(self.model, self.optimizer, f"{self.output_dir}/final.pt")
        state = get_model_state_dict(self.model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
        save_hf_weights(state, f"{self.output_dir}/hf.pt")
