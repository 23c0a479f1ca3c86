def encode(x):
    return x
