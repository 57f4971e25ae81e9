"""A byte address inside a shared buffer, mapped back to the element the buffer's layout puts there.

    T.ptr_byte_offset(X.ptr_to([i, ...]), n, dtype)      tmem_cp.SmemPtr(p, n): n bytes after p

Kernels write such addresses for a ring stage (tf32_hc_prenorm_gemm: `stage * block_m * block_k
* 2` bytes from element [0, 0, 0]) and for software-swizzled stmatrix rows (nvfp4_gemm: the
row-major byte of (row, col) with the 16-byte chunk XORed by the row, the hardware's 128B
pattern written out by hand).  The address is a byte of the buffer's storage; the element it
names is the one whose layout byte (swizzle included: ComposeLayout's address formula,
/work/shared/spec/tirx_semantics.md (f)) is exactly that byte:

    byte(p) = m(p) * bits / 8        (m: the layout's memory offset of p, after the swizzle)
    target  = byte(p) + n            -> the unique element e with byte(e) = target

When no element starts at that byte (a byte inside an element, past the buffer, or a layout with
replicas or non-memory axes) the address is refused: nothing is guessed.  The inverse is built
by enumerating the buffer's elements once (at most MAX_ELEMENTS) and cached per (layout, shape,
dtype).  The layout's iters come from `tirx-verify print` (layout_text.py).
"""
from __future__ import annotations

import itertools

from corpus_notation import DTYPE_BITS
from kernel_env import ConvertError

MAX_ELEMENTS = 1 << 20
_CACHE: dict = {}


def _swizzle(m: int, swz) -> int:
    """ComposeLayout(M, B, S, tile, swizzle_inner) applied to the tile's offset m (elements)."""
    if swz is None:
        return m
    pe, b, s, inner = swz
    q, low = m >> pe, m & ((1 << pe) - 1)
    mask = (1 << b) - 1
    q = q ^ (((q & (mask << s)) >> s) if inner else ((q & mask) << s))
    return (q << pe) | low


def _dim_offsets(iters) -> list[int]:
    """The memory offsets of one dimension's indices 0 .. extent - 1 (iters outermost first)."""
    out = [0]
    for e, s, _ax in iters:
        out = [o + j * s for o in out for j in range(e)]
    return out


def element_bits(buf) -> dict:
    """{bit offset of the element's first bit in the buffer's storage: coords} for every element."""
    import layout_text
    key = (buf.layout, tuple(buf.shape), buf.dtype)
    if key in _CACHE:
        return _CACHE[key]
    bits = DTYPE_BITS.get(buf.dtype)
    if bits is None:
        raise ConvertError(f"the element size of {buf.dtype} is not known")
    if not buf.layout:
        raise ConvertError(f"{buf.name} has no layout")
    total = 1
    for n in buf.shape:
        total *= n
    if total > MAX_ELEMENTS:
        raise ConvertError(f"{buf.name} has {total} elements, more than the {MAX_ELEMENTS} mapped back one by one")
    lay = layout_text.parse(buf.layout)
    if lay.replica or any(ax != layout_text.MEMORY_AXIS for _e, _s, ax in lay.shard) or \
            any(ax != layout_text.MEMORY_AXIS and v for ax, v in lay.offset.items()):
        raise ConvertError(f"{buf.name}'s layout {buf.layout} is not a plain memory layout (replicas or "
                           "thread/TMEM axes): a byte address does not name one element")
    groups = layout_text.group(lay, buf.shape)
    per_dim = [_dim_offsets(g) for g in groups]
    base = lay.offset.get(layout_text.MEMORY_AXIS, 0)
    out: dict = {}
    for coords in itertools.product(*(range(n) for n in buf.shape)):
        m = base + sum(per_dim[d][c] for d, c in enumerate(coords))
        at = _swizzle(m, lay.swizzle) * bits
        if at in out:
            raise ConvertError(f"{buf.name}'s layout puts two elements at bit {at} of its storage")
        out[at] = coords
    _CACHE[key] = (out, {c: b for b, c in out.items()})
    return _CACHE[key]


def resolve(v):
    """An element address for `v`: a Ptr as it is; T.ptr_byte_offset(p, n, dtype) (tmem_cp.SmemPtr)
    as the element of p's buffer whose layout byte is byte(p) + n; anything else unchanged."""
    from fragments import Ptr
    from tmem_cp import SmemPtr
    if type(v) is not SmemPtr:
        return v
    p, n = v.ptr, v.nbytes
    if not isinstance(p, Ptr):
        return v
    if n == 0:
        return p
    fwd, back = element_bits(p.buf)
    target = back[tuple(p.coords)] + 8 * n
    got = fwd.get(target)
    if got is None:
        raise ConvertError(f"{n} bytes after {p.buf.name}{list(p.coords)}: no element of {p.buf.name} starts at "
                           f"byte {target // 8} of its storage (its layout {p.buf.layout})")
    return Ptr(p.buf, tuple(got))


def tma_origin(v, p):
    """The element a TMA box written at the address `v` starts with: the TMA swizzles the absolute
    shared address it writes (PTX ISA §5.5.7), so box element 0 lands where the layout puts the
    element whose offset BEFORE the swizzle is that address, not at the element the address holds
    after it (`p`, resolve's answer).  They differ for an address inside a swizzle atom
    (sparse_atten_fwd's gather4 rows 512 bytes into a 1024-byte 128B atom: the address holds
    s_q[4, 32], the box starts with s_q[4, 0]).  `p` when v is no byte offset or no swizzle moves it."""
    from fragments import Ptr
    from tmem_cp import SmemPtr
    if type(v) is not SmemPtr or not isinstance(v.ptr, Ptr) or v.nbytes == 0 or not isinstance(p, Ptr):
        return p
    import layout_text
    buf = p.buf
    lay = layout_text.parse(buf.layout)
    if lay.swizzle is None:
        return p
    fwd, back = element_bits(buf)
    bits = DTYPE_BITS[buf.dtype]
    at = back[tuple(p.coords)]
    if at % bits:
        return p
    got = fwd.get(_swizzle(at // bits, lay.swizzle) * bits)
    return p if got is None else Ptr(buf, tuple(got))
