"""Variants of the raw TMA load `cp.async.bulk.tensor` beyond the plain tile form (instr_ops.py).

    cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
        [.cta_group::2][.L2::cache_hint](smem, MAP, c0..cN-1, mbar, cta_mask[, policy])

(operand order: apache/tvm 5d4dc87 python/tvm/backend/cuda/ptx/table.py:5426-5500, the mask after
the mbarrier and before the cache policy).  PTX ISA 9.1 §9.7.9.25.5.1: bit i of the 16-bit
ctaMask names the CTA of %cluster_ctarank i; the box is written at the same CTA-relative shared
offset of each of them (and the mbarrier signal likewise).  The model's `multicast` is that list
of ranks, informational; the op's `smem` stays this CTA's region, so the mask must include this
CTA's own rank (the representative instance's rank 0), else the op is refused: the instruction
would not write this CTA's `smem` at all.  The mask must be a value the source fixes.

`.tile::gather4` (PTX ISA 9.1 §5.5.3.4, §9.7.9.25.5.1):

    cp.async.bulk.tensor.2d.shared::{cta,cluster}.global.tile::gather4.mbarrier::complete_tx::bytes
        [.cta_group::N][.L2::cache_hint](smem, MAP, col, row0, row1, row2, row3, mbar[, policy])

2-D maps only, the map's box[1] must be 1 (box[0] is the row length); the four rows land in shared
memory one after the other, as a {box[0], 4} tile box would.  The model's op is a `tma.load`
with `coords` [col], `gather4` [row0..row3] and `global` the four row regions (docs/model-
format.md).  Row coordinates are operands like any other: a value the walk does not fix (rows
read from memory at run time) leaves the op unresolved naming it.  A row (or column range)
outside the map's dims (zero fill) is refused, and so is gather4 with `.multicast::cluster`.
scatter4 and im2col are refused (no model form).
"""
from __future__ import annotations

import ast

from kernel_env import ConvertError

MASK_BITS = 16   # ctaMask is a 16-bit operand (PTX §9.7.9.25.5.1)


def refuse_unmodelled(text: str) -> None:
    for form, why in (("scatter4", "tile::scatter4 stores 4 rows at 4 row coordinates; the model format has no "
                       "field for them"),
                      ("im2col", "im2col loads are not in the model format")):
        if form in text:
            raise ConvertError(f"{text!r}: {why}")


def multicast_ranks(call: ast.Call, text: str, rank: int, ev) -> list[int] | None:
    """The CTA ranks of a `.multicast::cluster` load's mask, or None for another form."""
    if ".multicast::cluster" not in text:
        return None
    i = 2 + rank + 1   # smem, map, coords, mbar, then the mask
    if len(call.args) <= i:
        raise ConvertError(f"{text}: no ctaMask operand after the mbarrier")
    node = call.args[i]
    if isinstance(node, ast.Call) and (ast.unparse(node.func).split(".")[-1] in ("cast", "reinterpret_cast")) \
            and len(node.args) == 2:
        node = node.args[0]
    mask = ev.as_int(node)
    if not 0 < mask < 1 << MASK_BITS:
        raise ConvertError(f"ctaMask {mask} is not a non-empty 16-bit mask")
    ranks = [r for r in range(MASK_BITS) if mask >> r & 1]
    if 0 not in ranks:
        raise ConvertError(f"ctaMask {mask:#x} (CTA ranks {ranks}) does not include this CTA (rank 0 of its "
                           "cluster in the representative instance): the load does not write its shared memory")
    return ranks


GATHER_ROWS = 4  # .tile::gather4: four row coordinates (PTX ISA §5.5.3.4)


def is_gather4(text: str) -> bool:
    return ".tile::gather4" in text


def gather4_form(text: str, rank: int, load: bool, tm) -> None:
    """The rules PTX ISA §5.5.3.4 sets on a gather4 load's spelling and map (ConvertError otherwise)."""
    if not load:
        raise ConvertError(f"{text!r}: .tile::gather4 is a load form")
    if rank != 2 or len(tm.dims) != 2:
        raise ConvertError(f"{text!r}: .tile::gather4 works only on 2-D tensor maps (PTX ISA §5.5.3.4); "
                           f"{tm.name} has rank {len(tm.dims)}")
    if tm.box[1] != 1:
        raise ConvertError(f"{text!r}: .tile::gather4 needs the map's box[1] to be 1 (PTX ISA §5.5.3.4: the "
                           f"bounding box's size in dimension 1 must be one); {tm.name}'s box is {list(tm.box)}")
    if ".multicast::cluster" in text:
        raise ConvertError(f"{text!r}: .tile::gather4 with .multicast::cluster is not modelled")


def gather4_rows(ev, nodes, line: int = 0) -> list[int]:
    """The four row coordinates, each a value the source fixes; else ConvertError naming it.  A row
    that is runtime data is bound to k under the representative instance (runtime_data.py: the
    four rows of a gather are then the distinct rows 0, 1, 2, 3)."""
    import runtime_data
    rows, first = [], None
    for k, node in enumerate(nodes):  # every row, so that one walk finds every runtime root
        try:
            rows.append(runtime_data.coord(ev, node, k, (
                f"gather4 row {k} at line {line}: the rows of one gather are taken to be the distinct rows 0, 1, 2, 3, "
                "the smallest distinct ones, so that kernel.tma-layout still sees which row lands where")))
        except ConvertError as e:
            first = first or ConvertError(f"gather4 row coordinate {k} ({ast.unparse(node)}) is not a value the "
                                          f"source fixes: {e}")
    if first is not None:
        raise first
    return rows


def gather4_in_bounds(tm, col: int, rows: list[int]) -> None:
    """Every gathered row and its box[0] columns inside the map's dims (zero fill is not modelled)."""
    if col < 0 or col + tm.box[0] > tm.dims[0]:
        raise ConvertError(f"gather4 columns {col}..{col + tm.box[0] - 1} run outside the map's dim 0 ({tm.dims[0]}):"
                           " partial rows (zero fill) are not modelled")
    for r in rows:
        if not 0 <= r < tm.dims[1]:
            raise ConvertError(f"gather4 row {r} is outside the map's dim 1 ({tm.dims[1]}): a zero-filled row is "
                               "not modelled")
