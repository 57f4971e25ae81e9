# Test module written for tirx-verify's extraction tests (not from any kernel repository): imports
# from the subpackage but never calls its builder, so it is no entry module.
from ._mini_gemm import Kind

DEFAULT = Kind.NORMAL
