# Test package written for tirx-verify's extraction tests (not from any kernel repository): a
# private subpackage whose public modules one directory up (mini_gemm.py, mini_bmm.py) each pin
# one configuration.  spec's public names are re-exported here, as a star import.
from .spec import *
from .spec import __all__ as __all__
