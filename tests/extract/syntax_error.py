import tvm


def kernel(A):
    x = (1,
    y = 2
