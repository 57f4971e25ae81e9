# Written for tirx-verify extraction tests: a Python file with no kernel in it.
X = 1


def helper(a):
    return a + X
