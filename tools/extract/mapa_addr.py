"""A shared address mapped into another CTA of the cluster by `mapa`, as helper code computes it.

flashmla's `_tma.leader_mbar` (f495258, tirx_kernels/flashmla/_tma.py:10-15) routes a cta_group::2
TMA's completion to the pair leader's mbarrier:

    mapped = T.alloc_local([1], "uint64")
    T.evaluate(T.ptx.mapa.u64(mapped[0], bar_ptr, T.uint32(0)))
    return T.reinterpret("handle", mapped[0])

`mapa{.shared::cluster}.type d, a, b` writes to d the address in CTA b (a 32-bit rank) that
corresponds to the shared address a (PTX ISA, Data Movement and Conversion Instructions: mapa;
without .space both a and d are generic addresses of shared memory).  So the register holds
ClusterAddr(a, b): the same shared object (here a barrier slot, `bar.ptr_to([i])`) in the CTA of
rank b.  The reinterpret of it to a handle is the same bits (builder_ns.reinterpret), and a copy's
`mbar=` of it is that slot of that CTA (tvm_pipeline.copy_mbar: notes only, as for the CTA's own
slot).  Only a rank the source fixes (an integer) and an operand that is a barrier slot or an
element address are modelled; anything else leaves the register unknown (reg_values.run forgets
it), so nothing is guessed.
"""
from __future__ import annotations

MAPA_TEXTS = ("T.ptx.mapa.u64", "Tx.ptx.mapa.u64", "T.ptx.mapa.u32", "Tx.ptx.mapa.u32",
              "T.ptx.mapa.shared__cluster.u64", "Tx.ptx.mapa.shared__cluster.u64",
              "T.ptx.mapa.shared__cluster.u32", "Tx.ptx.mapa.shared__cluster.u32")


class ClusterAddr:
    """The address of `addr`'s object in the CTA of cluster rank `rank` (mapa's result)."""

    def __init__(self, addr, rank: int, line: int):
        self.addr, self.rank, self.line = addr, rank, line

    def describe(self) -> str:
        inner = self.addr.describe() if hasattr(self.addr, "describe") else repr(self.addr)
        return f"{inner} in the CTA of cluster rank {self.rank} (mapa at line {self.line})"


def _mappable(v) -> bool:
    import fragments
    import tvm_pipeline
    return isinstance(v, (tvm_pipeline.BarrierSlot, fragments.Ptr))


def run(call, ev, dest, content) -> bool:
    """`mapa(d, a, b)` into the helper register `dest` (reg_values._dest of d): True when it set the
    register; False when it is not this form or an operand is not fixed (the caller forgets it)."""
    from corpus_notation import dotted
    if (dotted(call.func) or "") not in MAPA_TEXTS or len(call.args) != 3 or call.keywords or dest is None:
        return False
    a, b = content(ev.value(call.args[1])), content(ev.value(call.args[2]))
    if not _mappable(a) or not isinstance(b, int) or isinstance(b, bool):
        return False
    dest.array.values[dest.index] = ClusterAddr(a, b, getattr(call, "lineno", 0))
    return True
