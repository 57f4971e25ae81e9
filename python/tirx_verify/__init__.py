"""tirx_verify: verification and simulation of TVM TIRx GPU tensor layouts, in-process.

    import tirx_verify as tv
    from tirx_verify import S, R, Axis, TileLayout

    lay = TileLayout(S[(8, 4, 2):(4 @ Axis.laneid, 1 @ Axis.laneid, 1)])
    lay.apply(3, shape=(64,))                        # {'laneid': 1, 'm': 1}
    tv.check("tmem_datapath_layout('D', 128, 32)", shape=(128, 32), dtype="float32",
             scope="tmem", alloc_cols=32).raise_for_failures()

docs/python.md is the guide. Layout arguments accept layouts, S[...] specs, notation text, and
any object whose str() is TVM's printed form (a TVM layout).
"""

import os as _os

from . import _core
from .errors import InputError, LayoutError, UndecidedError

_core._register_errors(InputError, UndecidedError)

# An installed package carries the data files the library reads (models/targets) in _data/.
_data = _os.path.join(_os.path.dirname(__file__), "_data")
if not _os.environ.get("TIRX_VERIFY_ROOT") and _os.path.isdir(_os.path.join(_data, "models", "targets")):
    _os.environ["TIRX_VERIFY_ROOT"] = _data

from . import sim, testing  # noqa: E402
from ._builder import Iter, LayoutSpec, R, S  # noqa: E402
from .api import KernelModel, KernelReport, check, check_kernel, equivalent, load_kernel  # noqa: E402
from .axis import Axis  # noqa: E402
from .factories import (SwizzleMode, default_tmem_layout, mma_shared_layout, sf_smem_layout,  # noqa: E402
                        sf_tmem_layout, tcgen05_atom_layout, tmem_datapath_layout, tmem_mma_operand_layout,
                        wg_local_layout)
from .layout import ComposeLayout, Layout, TileLayout, as_layout  # noqa: E402
from .report import CheckResult, Report  # noqa: E402

__version__ = _core.__version__


def parse(text, params=None) -> Layout:
    """A layout from notation text (any form the CLI reads); ``params`` binds names."""
    return as_layout(str(text), params)


__all__ = ["Axis", "CheckResult", "ComposeLayout", "InputError", "Iter", "KernelModel", "KernelReport", "Layout",
           "LayoutError", "LayoutSpec", "R", "Report", "S", "SwizzleMode", "TileLayout", "UndecidedError",
           "as_layout", "check", "check_kernel", "default_tmem_layout", "equivalent", "load_kernel",
           "mma_shared_layout", "parse", "sf_smem_layout", "sf_tmem_layout", "sim", "tcgen05_atom_layout",
           "testing", "tmem_datapath_layout", "tmem_mma_operand_layout", "wg_local_layout"]
