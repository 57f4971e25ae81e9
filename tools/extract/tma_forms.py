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

`.tile::gather4` (four rows at four row coordinates, a 2-D box of 4 rows) has no field in the
model format and kernel.tma-layout does not simulate it: refused, saying so.  scatter4 and
im2col likewise.
"""
from __future__ import annotations

import ast

from kernel_env import ConvertError

MASK_BITS = 16   # ctaMask is a 16-bit operand (PTX §9.7.9.25.5.1)


def refuse_unmodelled(text: str) -> None:
    for form, why in (("gather4", "tile::gather4 loads 4 rows at 4 row coordinates; the model format has no field "
                       "for the row coordinates and kernel.tma-layout does not simulate it"),
                      ("scatter4", "tile::scatter4 stores 4 rows at 4 row coordinates; the model format has no "
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
