# Test entry module written for tirx-verify's extraction tests (not from any kernel repository):
# pins the NORMAL kind; the registry calls get_kernel(**CONFIGS[0]).
from ._mini_gemm import Kind, best_spec

KERNEL_META = {"name": "mini_gemm"}
CONFIGS = [{"M": 256, "label": "m256"}]


def _spec_for(config):
    return best_spec(Kind.NORMAL, config["M"])


def get_kernel(**config):
    from ._mini_gemm import build_kernel

    config.pop("label", None)
    return build_kernel(_spec_for(config))
