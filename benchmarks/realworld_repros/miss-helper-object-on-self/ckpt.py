import torch


class Checkpointer:
    def save(self, model, step):
        torch.save({"model": model.state_dict()}, f"ckpt/{step}.pt")  # want: FSD301 (through Trainer.save_checkpoint)
