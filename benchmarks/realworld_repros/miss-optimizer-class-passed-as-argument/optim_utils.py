def build_optimizer(network, optimizer_cls, lr):
    """The optimizer class is chosen by the caller (AdamW, Muon, a CPU-offload wrapper...)."""
    trainable = [p for name, p in network.named_parameters() if "lora" in name or p.requires_grad]
    return optimizer_cls([{"params": trainable, "lr": lr}])


class OptimizerHolder:
    """Keeps the optimizer next to the networks it was built for."""

    def __init__(self, optimizer_cls, networks, lr):
        self.networks = list(networks)
        self.optimizer = build_optimizer(self.networks[0], optimizer_cls, lr)

    def step(self):
        self.optimizer.step()
