import argparse

import torch
import yaml

from model import WeatherModel
from parallel import distributed_model_wrapper
from resume import load_model_states


def main(config_path):
    with open(config_path) as f:
        conf = yaml.safe_load(f)
    model = WeatherModel(conf["model"]["dim"], conf["model"]["depth"])
    model = distributed_model_wrapper(conf, model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=conf["trainer"]["lr"])
    start_epoch = 0
    if conf["trainer"]["load_weights"]:
        start_epoch = load_model_states(conf, model, optimizer)
    return model, optimizer, start_epoch


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("config")
    main(parser.parse_args().config)
