from net import CausalLM
from shard import shard


def main():
    model = CausalLM()
    shard(model)


main()
