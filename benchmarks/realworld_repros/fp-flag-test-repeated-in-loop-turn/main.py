from pkg.engine import Engine


def main():
    Engine({"models": {"backbone": {"ema": True}, "critic": {"ema": False}}})


if __name__ == "__main__":
    main()
