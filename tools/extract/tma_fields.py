"""Two fields of a TMA tile copy (`Tx.copy_async(dst, src, dispatch="tma", ...)`): `reduce` and
`past_tensor` (docs/model-format.md, tile copy with dispatch "tma"; docs/extract.md "TMA reduce and
boxes past the tensor").

`use_tma_reduce=OP` (read at apache/tvm 5d4dc87 python/tvm/backend/cuda/tile_primitive/copy_async/
tma.py:1587-1592): None (or absent) is the plain store; any other value is accepted only on a
shared -> global copy ("use_tma_reduce is only valid for shared-to-global TMA") and only as one of
add, min, max, inc, dec, and, or, xor ("unsupported TMA reduce operation"; the test is `is not
None`, so False is refused too).  The store is then `cp.reduce.async.bulk.tensor.Nd.global.
shared::cta.OP.tile.bulk_group` (tma.py:2155-2163): the op's `reduce` field.

A global region past the tensor: TVM slices each global dimension per group and a one-iterator
group's slice is taken as given ("the caller guarantees begin + slice_extent <= extent (which is
assumed)", src/tirx/ir/layout/tile_slice.cc:82-89), the tensor map's dims are the buffer's (the
global_dim rule is left to cuTensorMapEncodeTiled at run time, tma.py:209-211), and the box is the
region's extent.  The box's elements outside the tensor are zero-filled on a load and not written
on a store (PTX ISA, tensor copy out-of-bound access).  The op keeps the region as written with
`past_tensor: true`; a region wholly past the tensor (a store that writes nothing) too.  A region
starting before the tensor (a negative start) or empty gets no flag: the model reader refuses it
(extract.model), as before.
"""
from __future__ import annotations


from kernel_env import ConvertError

REDUCE_MODES = ("add", "min", "max", "inc", "dec", "and", "or", "xor")   # tma.py:1591
TMA_DISPATCHES = ("tma", "tma_auto", "tma_explicit")
SHARED = ("shared", "shared.dyn")


def reduce_mode(kw: dict, dispatch, sb, db) -> str | None:
    """Pop `use_tma_reduce` from kw: the op's `reduce` value, None for a plain copy; ConvertError
    where TVM refuses it (or its meaning outside a TMA dispatch is not known)."""
    if "use_tma_reduce" not in kw:
        return None
    mode = kw.pop("use_tma_reduce")
    if mode is None:
        return None   # TVM's default: the plain store
    if dispatch not in TMA_DISPATCHES:
        raise ConvertError(f"use_tma_reduce={mode!r} with dispatch {dispatch!r}: only its TMA meaning is known "
                           "(not modelled by the model format)")
    if not (sb.scope in SHARED and db.scope == "global"):
        raise ConvertError(f"use_tma_reduce={mode!r} on a {sb.scope} -> {db.scope} copy: TVM refuses it "
                           "(\"use_tma_reduce is only valid for shared-to-global TMA\", copy_async/tma.py:1589-1590)")
    if isinstance(mode, bool) or mode not in REDUCE_MODES:
        raise ConvertError(f"use_tma_reduce={mode!r}: TVM refuses it (\"unsupported TMA reduce operation\", "
                           f"copy_async/tma.py:1591-1592; known: {', '.join(REDUCE_MODES)})")
    return mode


def _bounds(text: str, shape) -> list | None:
    """[(lo, hi)] per dimension of a region text NAME[...] with signed integer bounds (None: not
    constant; region_text.py)."""
    import region_text
    return region_text.bounds(text, shape, signed=True)


def past_tensor(src: str, sb, dst: str, db) -> bool:
    """Whether the TMA copy's global region runs past (or lies wholly past) its tensor's end in
    some dimension (a dimension starting before it or empty is left to the model reader's refusal)."""
    past = False
    for text, b in ((src, sb), (dst, db)):
        if b.scope != "global":
            continue
        rg = _bounds(text, b.shape) or []   # another region text: as before, left to the reader
        for (lo, hi), n in zip(rg, b.shape):
            if isinstance(n, int) and 0 <= lo < hi and hi > n:
                past = True
    return past
