def param_groups(network, weight_decay):
    """Norms and biases take no weight decay."""
    decay = [p for name, p in network.named_parameters() if p.ndim >= 2]
    no_decay = [p for name, p in network.named_parameters() if p.ndim < 2]
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


def build_optimizer(network, optimizer_cls, lr, weight_decay=0.1):
    """The optimizer class is the algorithm's choice (AdamW, a fused or offloaded variant)."""
    return optimizer_cls(param_groups(network, weight_decay), lr=lr)
