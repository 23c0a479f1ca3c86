from engine.base import BaseEngine


def main():
    config = {
        "models": {
            "generator": {"dim": 1024, "depth": 12, "ema": True},
            "critic": {"dim": 512, "depth": 6, "ema": False},
        }
    }
    BaseEngine(config)


if __name__ == "__main__":
    main()
