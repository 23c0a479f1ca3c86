from tools.eval.codec import encode


def main():
    return encode(1)
