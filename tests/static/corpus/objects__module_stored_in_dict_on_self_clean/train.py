import torch.distributed as dist

from engine import Engine


def main():
    dist.init_process_group("gloo")
    engine = Engine(["actor", "critic"])
    engine.build_models(256)
    engine.save("actor.pt")


if __name__ == "__main__":
    main()
