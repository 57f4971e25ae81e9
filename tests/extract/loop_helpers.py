# Written for tirx-verify's extraction tests: a sibling module imported relatively (its
# constants and a helper that issues an op), read from this file's directory.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

STAGES = 2
ROWS = 128


def load_stage(dst, src, stage):
    Tx.copy_async(dst[stage, :, :], src[stage * ROWS:(stage + 1) * ROWS, :])
