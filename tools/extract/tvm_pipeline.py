"""TVM's mbarrier helper classes (`Pipeline`, `MBarrier`, `TMABar`, `TCGen05Bar`), as far as a model needs them.

Read at apache/tvm 4b5598a74f python/tvm/backend/cuda/lang/pipeline.py (the kernels import it as
`tvm.tirx.lang.pipeline`, a redirect to it: python/tvm/tirx/lang/pipeline.py:6-8):

    MBarrier(pool, depth, phase_offset=0, leader=None)     171-176: `buf` = pool.alloc((depth,),
                                                           "uint64", align=8), `depth`, `phase_offset`
    TMABar / TCGen05Bar                                    252, 289: subclasses, same constructor
    Pipeline(pool, stages, *, full, empty, init_full=1,    360-376: `stages`; `full` = the class
             init_empty=1, empty_phase_offset=0,           named by `full` ("tma" TMABar, "tcgen05"
             leader=None)                                  TCGen05Bar, "mbar" MBarrier, 327) built
                                                           with (pool, stages), then `empty` with
                                                           phase_offset=empty_phase_offset; both init()

What a model takes from them: the barrier objects and their slots.  `B.buf.ptr_to([i])` /
`B.ptr_to([i])` is slot i of barrier B (a BarrierSlot; i must lie in 0..depth-1 when the source
fixes it).  A TMA copy's `mbar=` option is such a slot: the barrier the copy completes on, not a
field of the model format (the copy's plan is its box and swizzle), so the op records it in its
notes only.  Their init/wait/arrive are synchronisation statements, which the one-pass model
does not contain.  The mbarrier words themselves are storage that no model op reads or writes
(as the kernels' own mbarrier arrays): not model buffers.  SMEM pool placement is not modelled
by the extraction, so the words they take in the pool change nothing else here.
"""
from __future__ import annotations

from corpus_notation import ConvertError

PIPELINE_MODULES = ("tvm.tirx.lang.pipeline", "tvm.backend.cuda.lang.pipeline")
BAR_CLASSES = {"MBarrier": "mbar", "TMABar": "tma", "TCGen05Bar": "tcgen05"}
BAR_KINDS = {"tma": "TMABar", "tcgen05": "TCGen05Bar", "mbar": "MBarrier"}   # pipeline.py:327


def _count(v, what):
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise ConvertError(f"{what} {v!r} is not a positive integer")
    return v


class Barrier:
    def __init__(self, cls: str, depth: int, phase_offset, line: int, label: str):
        self.cls, self.depth, self.phase_offset, self.line, self.label = cls, depth, phase_offset, line, label
        self.buf = BarrierBuf(self)
        self.count = None   # arrivals per phase, when the constructor fixes it (Pipeline's init_full / init_empty)

    def lose(self, line: int, why: str) -> None:
        """Arrivals in a loop of which the walk takes only the first iterations (kernel_walk.walk_for's
        state rule): the later iterations' arrivals are not walked, so the phases are not followed."""
        import barrier_phase
        barrier_phase.phases().lose(self, f"{self.label}: arrived on in a loop ({why})")

    def after_loop(self, line: int) -> None:
        self.lose(line, f"the loop at line {line}, of which the walk takes the first iteration: later iterations' "
                  "arrivals are not walked")

    def attr(self, name):
        if name == "buf":
            return self.buf
        if name in ("depth", "phase_offset"):
            return getattr(self, name)
        if name == "ptr_to":
            return self.buf.ptr_to
        raise ConvertError(f"{self.cls}.{name}: not a field the extraction evaluates (init/wait/arrive are "
                           "synchronisation statements)")


class BarrierBuf:
    """A barrier's `buf`: depth uint64 mbarrier words in shared memory."""

    def __init__(self, bar: Barrier):
        self.bar = bar

    def attr(self, name):
        if name == "ptr_to":
            return self.ptr_to
        raise ConvertError(f"{self.bar.label}.buf.{name}: not evaluated (mbarrier storage, not a model buffer)")

    def ptr_to(self, idx):
        if not isinstance(idx, (list, tuple)) or len(idx) != 1:
            raise ConvertError(f"{self.bar.label}.buf.ptr_to({idx!r}): a barrier array has one index")
        i = idx[0]
        if isinstance(i, int) and not isinstance(i, bool) and not 0 <= i < self.bar.depth:
            raise ConvertError(f"{self.bar.label}.buf.ptr_to([{i}]): outside its {self.bar.depth} slots")
        return BarrierSlot(self.bar, i)


class BarrierSlot:
    def __init__(self, bar: Barrier, index):
        self.bar, self.index = bar, index

    def describe(self) -> str:
        return f"{self.bar.label} slot {self.index} ({self.bar.cls}, line {self.bar.line})"


class PipelineObj:
    def __init__(self, stages: int, full: Barrier, empty: Barrier, line: int):
        self.stages, self.full, self.empty, self.line = stages, full, empty, line

    def attr(self, name):
        if name in ("stages", "full", "empty"):
            return getattr(self, name)
        raise ConvertError(f"Pipeline.{name}: not a field the extraction evaluates")


def construct(imported, args: list, kwargs: dict, line: int, label: str):
    """The value of calling one of these imported classes, or None when `imported` is none of them."""
    mod, name = imported.module, imported.name
    if mod not in PIPELINE_MODULES:
        return None
    if name in BAR_CLASSES:
        params = ["pool", "depth", "phase_offset", "leader"]
        bound = dict(zip(params, args))
        if len(args) > len(params) or set(kwargs) - set(params) or set(kwargs) & set(bound):
            raise ConvertError(f"{name}(pool, depth, phase_offset=0, leader=None): arguments")
        bound.update(kwargs)
        if "depth" not in bound:
            raise ConvertError(f"{name}: no depth")
        return Barrier(name, _count(bound["depth"], f"{name} depth"), bound.get("phase_offset", 0), line, label)
    if name == "Pipeline":
        if len(args) > 2 or set(kwargs) - {"pool", "stages", "full", "empty", "init_full", "init_empty",
                                           "empty_phase_offset", "leader"}:
            raise ConvertError("Pipeline(pool, stages, *, full, empty, init_full=1, init_empty=1, "
                               "empty_phase_offset=0, leader=None): arguments")
        stages = args[1] if len(args) > 1 else kwargs.get("stages")
        stages = _count(stages, "Pipeline stages")
        kinds = []
        for side in ("full", "empty"):
            k = kwargs.get(side)
            if k not in BAR_KINDS:
                raise ConvertError(f"Pipeline {side}={k!r}: not one of {sorted(BAR_KINDS)} (pipeline.py:327)")
            kinds.append(BAR_KINDS[k])
        full = Barrier(kinds[0], stages, 0, line, f"{label}.full")
        empty = Barrier(kinds[1], stages, kwargs.get("empty_phase_offset", 0), line, f"{label}.empty")
        full.count, empty.count = kwargs.get("init_full", 1), kwargs.get("init_empty", 1)   # pipeline.py:371-376
        return PipelineObj(stages, full, empty, line)
    return None


VALUE_TYPES = (Barrier, BarrierBuf, PipelineObj)


def handles(imported) -> bool:
    return imported.module in PIPELINE_MODULES and (imported.name in BAR_CLASSES or imported.name == "Pipeline")


def copy_mbar(value, dispatch) -> str | None:
    """A tile copy's `mbar=` option: the mbarrier slot a TMA copy completes on (complete_tx).  Not a
    field of the model; its description goes to the op's notes.  Anything else is refused."""
    if value is None:
        return None
    if dispatch not in ("tma", "tma_auto"):
        raise ConvertError(f"mbar= on a {dispatch} copy: only a TMA copy completes on an mbarrier")
    from fragments import Ptr
    if isinstance(value, Ptr) and value.buf.dtype == "uint64" and "shared" in value.buf.scope:
        # the address of one 64-bit word of a shared buffer (`self.mbar.ptr_to([ks])` of the megakernel's
        # Barriers, utils/base.py:77-95 at 8721e86): TVM takes mbar= as the mbarrier's address
        # (apache/tvm 5d4dc87 python/tvm/backend/cuda/tile_primitive/copy_async/tma.py:1567-1575, 1598)
        return f"completes on the mbarrier at {value.buf.name}{list(value.coords)}"
    import mapa_addr  # the slot in another CTA of the cluster, mapped by mapa (mapa_addr.py)
    if isinstance(value, mapa_addr.ClusterAddr) and isinstance(value.addr, BarrierSlot):
        return f"completes on {value.describe()}"
    if not isinstance(value, BarrierSlot):
        raise ConvertError("mbar= is not a slot of a barrier object (Pipeline/MBarrier .buf.ptr_to([i])) nor the "
                           "address of a uint64 word of a shared buffer: the extraction does not follow it")
    return f"completes on {value.describe()}"
