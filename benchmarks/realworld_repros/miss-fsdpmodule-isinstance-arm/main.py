from library_trainer import build_trainer  # a library outside the tree shards the model

from sync import export_weights


def main(config):
    trainer = build_trainer(config)
    trainer.fit()
    export_weights(trainer.model, "weights.pt")
