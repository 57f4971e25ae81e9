# Test entry module written for tirx-verify's extraction tests (not from any kernel repository):
# pins the BATCHED kind (two stages, twice the rows).
from ._mini_gemm import Kind, best_spec

CONFIGS = [{"M": 64}]


def get_kernel(**config):
    from ._mini_gemm import build_kernel

    return build_kernel(best_spec(Kind.BATCHED, config["M"]))


# A syntax error written on purpose (tests/extract/cases.json: an entry module that does not parse)
def broken(:
    pass
