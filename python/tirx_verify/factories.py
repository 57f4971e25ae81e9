"""TVM's layout factories, with TVM's names, argument names and orders (docs/notation.md lists them):

    tmem_datapath_layout(datapath, rows, cols, sub_slab=0)
    tcgen05_atom_layout(instr_shape, tensor_shape, dtype)
    wg_local_layout(cols, rows=128)
    sf_tmem_layout(rows, SF_K, sf_per_mma, sf_reuse=1, pipe_depth=None)
    sf_smem_layout(rows, SF_K, sf_per_mma, sf_reuse=1, pipe_depth=None)
    mma_shared_layout(dtype, swizzle_mode, shape)
    tmem_mma_operand_layout(operand, shape, dtype, M=None, cta_group=None, ws=None, sparse=None, group=None)
    default_tmem_layout(rows, cols)

Each is evaluated by the library exactly as the CLI evaluates the same call in notation text (the
factories' sources and rules: layout/factories.hpp, with the PTX sections). ``swizzle_mode`` is a
:class:`SwizzleMode` member, its name ("SWIZZLE_128B_ATOM") or its number (0..3).
"""

import json

from ._builder import LayoutSpec
from .layout import Layout, as_layout


class _Mode:
    __slots__ = ("name", "value")

    def __init__(self, name, value):
        self.name, self.value = name, value

    def __repr__(self):
        return f"SwizzleMode.{self.name}"

    __str__ = __repr__


class SwizzleMode:
    """TVM's tma_utils.SwizzleMode."""

    SWIZZLE_NONE = _Mode("SWIZZLE_NONE", 0)
    SWIZZLE_32B_ATOM = _Mode("SWIZZLE_32B_ATOM", 1)
    SWIZZLE_64B_ATOM = _Mode("SWIZZLE_64B_ATOM", 2)
    SWIZZLE_128B_ATOM = _Mode("SWIZZLE_128B_ATOM", 3)


def _arg(v):
    if v is None:
        return "None"
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, _Mode):
        return repr(v)
    if isinstance(v, (tuple, list)):
        return "(" + ", ".join(_arg(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, (Layout, LayoutSpec)):
        return as_layout(v).builder()
    return json.dumps(str(v))  # a dtype object (TVM DataType) prints as its name


def _call(name, args, kwargs):
    parts = [_arg(a) for a in args] + [f"{k}={_arg(v)}" for k, v in kwargs.items() if v is not None]
    return as_layout(f"{name}({', '.join(parts)})")


def tmem_datapath_layout(datapath, rows, cols, sub_slab=0):
    """The TMEM layout of an MMA accumulator in data path ``datapath`` ("A".."G", PTX ISA 9.7.16.10.1)."""
    return _call("tmem_datapath_layout", (datapath, rows, cols), {"sub_slab": sub_slab})


def tcgen05_atom_layout(instr_shape, tensor_shape, dtype):
    """The register fragment of one tcgen05.ld/st shape over a (rows, cols) tensor (PTX ISA 9.7.16.8.3)."""
    return _call("tcgen05_atom_layout", (instr_shape, tuple(tensor_shape), str(dtype)), {})


def wg_local_layout(cols, rows=128):
    return _call("wg_local_layout", (cols,), {"rows": rows})


def sf_tmem_layout(rows, SF_K, sf_per_mma, sf_reuse=1, pipe_depth=None):  # noqa: N803 -- TVM's name
    return _call("sf_tmem_layout", (rows, SF_K, sf_per_mma), {"sf_reuse": sf_reuse, "pipe_depth": pipe_depth})


def sf_smem_layout(rows, SF_K, sf_per_mma, sf_reuse=1, pipe_depth=None):  # noqa: N803
    return _call("sf_smem_layout", (rows, SF_K, sf_per_mma), {"sf_reuse": sf_reuse, "pipe_depth": pipe_depth})


def mma_shared_layout(dtype, swizzle_mode, shape):
    """The shared-memory MMA operand layout (K-major canonical layouts, PTX ISA 9.7.16.3.3)."""
    if isinstance(swizzle_mode, str) and not swizzle_mode.startswith("SwizzleMode."):
        swizzle_mode = getattr(SwizzleMode, swizzle_mode)
    return _call("mma_shared_layout", (str(dtype), swizzle_mode, tuple(shape)), {})


def tmem_mma_operand_layout(operand, shape, dtype, M=None, cta_group=None, ws=None, sparse=None, group=None):  # noqa: N803
    return _call("tmem_mma_operand_layout", (operand, tuple(shape), str(dtype)),
                 {"M": M, "cta_group": cta_group, "ws": ws, "sparse": sparse,
                  "group": tuple(group) if group is not None else None})


def default_tmem_layout(rows, cols):
    return _call("default_tmem_layout", (rows, cols), {})


__all__ = ["SwizzleMode", "tmem_datapath_layout", "tcgen05_atom_layout", "wg_local_layout", "sf_tmem_layout",
           "sf_smem_layout", "mma_shared_layout", "tmem_mma_operand_layout", "default_tmem_layout"]
