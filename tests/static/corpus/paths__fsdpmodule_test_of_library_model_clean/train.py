"""Fine-tunes with a training library outside this tree, which shards the model with
`fully_shard` when the launch has more than one rank, then exports weights for inference."""

import argparse

from trainer_lib import Trainer, TrainerConfig  # a library outside the tree

from evaluation import evaluate
from export import export_weights


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="gpt2")
    parser.add_argument("--out", default="weights.pt")
    args = parser.parse_args()
    trainer = Trainer(TrainerConfig(model_name=args.model, data_parallel="auto"))
    trainer.fit()
    evaluate(trainer.model, trainer.eval_batches())
    export_weights(trainer.model, args.out)


if __name__ == "__main__":
    main()
