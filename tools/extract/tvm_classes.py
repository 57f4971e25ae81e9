"""TVM's small kernel-side state classes, evaluated as TVM defines them.

The pre-kern-DSL kernels import three helper classes from TVM whose state decides the operands
of their TMA and tcgen05 instructions.  TVM is not imported; each class's semantics is read from
TVM's source and written here.  The kernels import them from `tvm.tirx.lang.pipeline` /
`tvm.tirx.lang.smem_desc`, where they were before TVM's backend reorganisation 1ee6c2c moved them
to `tvm.backend.cuda.lang.*`; the semantics is the same on both sides of the move (apache/tvm
1ee6c2c^ python/tvm/tirx/lang/pipeline.py:42-62, smem_desc.py:36-42; 5d4dc87 lines below):

    class (module)                          value here        semantics (source)
    --------------------------------------  ----------------  ------------------------------------
    PipelineState(depth, phase=None)        PipeState         `stage` 0 and `phase` as given;
      (tvm.tirx.lang.pipeline)                                `init(p)`: stage 0, phase p;
                                                              `advance()`: depth > 1: stage + 1,
                                                              at depth back to 0 with phase ^ 1;
                                                              depth 1: phase ^ 1
                                                              (python/tvm/backend/cuda/lang/
                                                              pipeline.py:46-82)
    SmemDescriptor()                        SmemDescObj       `init(smem_ptr, ldo, sdo, swizzle)`
      (tvm.tirx.lang.smem_desc)                               is encode_matrix_descriptor on the
                                                              object's register (smem_desc.py:
                                                              35-39); `add_16B_offset(off)` adds
                                                              `off` to the descriptor's low 32
                                                              bits, i.e. to the start address
                                                              field in 16-byte units (smem_desc.py:
                                                              41-42 -> tile_primitive/common.py:
                                                              65-73)

A scalar declared without a value (`accum: T.int32`) is one TIR variable, written and read in
program order, also by the `@T.inline` functions that see it: TVM inlines their bodies at the
call, resolving names late in the defining scope's frames (apache/tvm 5d4dc87
python/tvm/tirx/script/parser/entry.py:90-209, TIRInline.__call__ 134-161).  It is a TirLocal,
shared by every environment copy, so an assignment in an inlined body is seen by the next read.

A state built by some warps (every warp, before a warp-role branch) and changed inside a branch
by a subset of them is one copy per warp (per-thread registers): each warp's copy follows the
changes on its own path, and a read sees the value of the reading warps' copies -- unresolved when
they differ.

A state object is per-thread register state.  Its value is known only while every change to it
happened in code that the walk follows exactly: an `advance()` / `init()` under an undecided
condition, in a loop the walk does not unroll, by warps other than those that created it, or in
a `T.serial` loop of which the walk takes only the first iterations (after that loop the real
state has advanced once per iteration) makes it *stale*: reading `stage` / `phase` afterwards is
unresolved, saying which line made it so.  Nothing is guessed.
"""
from __future__ import annotations

from corpus_notation import ConvertError

PIPELINE_MODULES = ("tvm.tirx.lang.pipeline", "tvm.backend.cuda.lang.pipeline")
SMEM_DESC_MODULES = ("tvm.tirx.lang.smem_desc", "tvm.backend.cuda.lang.smem_desc")
STATE_METHODS = ("advance", "init")


class PipeState:
    def __init__(self, depth: int, phase, line: int, warps):
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
            raise ConvertError(f"PipelineState depth {depth!r} is not a positive integer")
        self.depth, self.line, self.warps = depth, line, warps
        self.stage = 0 if phase is not None else None
        self.phase = phase
        self.stale: tuple[int, str] | None = None   # (line, why) once the walk lost track of it
        # warp -> (stage, phase): the copies of warps that changed the state on their own path
        # (a state built before a warp-role branch and advanced inside it; per-thread registers,
        # so each warp role holds its own copy).  Warps not listed hold (self.stage, self.phase).
        self.copies: dict = {}
        self.lane_lost: dict = {}   # warp -> why its copy is not followed (changed by some of its lanes only)

    def _values(self, warps):
        """The distinct (stage, phase, stale-why) values the given warps hold (None: every warp), in
        warp order."""
        base = (self.stage, self.phase, None)
        if warps is None:
            vals = [base] + [self.copies[w] for w in sorted(self.copies)]
        else:
            vals = [self.copies.get(w, base) for w in sorted(warps)]
        return list(dict.fromkeys(vals))  # in warp order, so the reason reported does not depend on hashing

    def read(self, attr: str, node):
        from kernel_env import Unresolved, UnresolvedError
        if attr == "depth":
            return self.depth
        if attr not in ("stage", "phase"):
            raise ConvertError(f"PipelineState has no field {attr!r} the extraction models")
        if self.stale is not None:
            line, why = self.stale
            raise UnresolvedError(Unresolved(f"PipelineState.{attr}", line, why))
        ws = WALK.get("warps")
        lost = [self.lane_lost[w] for w in (ws if ws is not None else self.lane_lost) if w in self.lane_lost]
        if lost:
            raise UnresolvedError(Unresolved(f"PipelineState.{attr}", self.line, lost[0]))
        vals = self._values(WALK.get("warps")) if self.copies else [(self.stage, self.phase, None)]
        why = next((w for w in (_why(v[2]) for v in vals) if w is not None), None)
        if why is not None and attr == "stage":
            raise UnresolvedError(Unresolved(f"PipelineState.{attr}", self.line, why))
        vals = {v[0:1] for v in vals} if attr == "stage" else {v[1:2] for v in vals}
        if len(vals) > 1:
            ws = WALK.get("warps")
            raise UnresolvedError(Unresolved(f"PipelineState.{attr}", self.line, "read by warps whose copies "
                                             f"differ (each changed it on its own path): warps "
                                             f"{sorted(ws) if ws is not None else 'all'} hold {sorted(str(v[0]) for v in vals)}"))
        v = next(iter(vals))[0]
        if v is None:
            raise UnresolvedError(Unresolved(f"PipelineState.{attr}", self.line, "read before init() (the "
                                             "state was built without a phase)"))
        return v

    def init(self, phase) -> None:
        self.stage, self.phase = 0, phase

    def advance(self) -> None:
        if self.stale is not None:
            return
        if self.phase is None:
            self.stale = (self.line, "advanced before init()")
            return
        if self.depth > 1:
            self.stage += 1
            if self.stage == self.depth:
                self.stage, self.phase = 0, self.phase ^ 1
        else:
            self.phase ^= 1

    def advance_copies(self, warps) -> None:
        """advance() run by `warps` only (a subset of the warps that built the state): their copies.
        A copy that runs past the ring's end within the walked pass keeps its phase, but its stage
        is not followed: the next use of slot 0 waits until the consumer warps released it, and the
        walk places their ops after this warp's (one pass, warp roles one after the other), so the
        reuse cannot be put in the pass's order."""
        for w in warps:
            st, ph, why = self.copies.get(w, (self.stage, self.phase, None))
            if ph is None:
                self.lose(self.line, "advanced before init()")
                return
            if self.depth > 1:
                st += 1
                if st == self.depth:
                    st, ph = 0, ph ^ 1
                    why = why or ("wrap", w, self.depth, "within the walked pass")  # judged when read (_why)
            else:
                ph ^= 1
            self.copies[w] = (st, ph, why)

    def init_copies(self, warps, phase) -> None:
        for w in warps:
            self.copies[w] = (0, phase, None)

    def lose_copies(self, warps, why: str) -> None:
        """The copies of `warps` are no longer followed (their `stage` and `phase` reads are unresolved)."""
        for w in warps:
            self.copies.setdefault(w, (self.stage, self.phase, None))
            self.lane_lost.setdefault(w, why)

    def lose(self, line: int, why: str) -> None:
        if self.stale is None:
            self.stale = (line, why)


def _why(mark):
    """A copy's mark: None, a reason, or ("wrap", warp, depth, where), judged at the read by wrap_reason."""
    if isinstance(mark, tuple) and mark and mark[0] == "wrap":
        return wrap_reason(*mark[1:])
    return mark


def wrap_reason(w, depth: int, where: str = "within the walked pass") -> str | None:
    """Why a per-warp copy that wrapped its ring is not followed, or None when it is.  The reuse of a
    slot waits for the consumer warps' release; when the warp's role is walked as a coroutine whose
    waits were all decided (role_sched.py), the walk has placed that release before the reuse (or
    the reuse waits on nothing the other roles do), so the copy's stage is its real one."""
    import role_sched
    ok, lost = role_sched.ordered(None)
    if ok:
        return None
    opening = "" if where.endswith(";") else "("
    base = f"warp {w}'s copy wrapped around the {depth}-slot ring {where} {opening}reusing a slot waits for the consumer warps"
    if lost is not None:
        return f"{base}, and {lost}: the walk does not establish the order of its release and the reuse)"
    return f"{base}, whose ops the one-pass walk places later)"


class SmemDescObj:
    """A SmemDescriptor: `encoded` is the instr_ops.SmemDescDeferred its init() bound (None before)."""

    def __init__(self, line: int):
        self.line = line
        self.encoded = None


class SmemDescOffset:
    """`desc.add_16B_offset(units)`: the descriptor `desc` with `units` x 16 bytes added to its start."""

    def __init__(self, desc: SmemDescObj, units: int):
        self.desc, self.units = desc, units


def construct(imported, args: list, line: int, warps):
    """The value of calling an imported TVM class, or None when it is not one of these."""
    mod, name = imported.module, imported.name
    if name == "PipelineState" and mod in PIPELINE_MODULES:
        if not 1 <= len(args) <= 2:
            raise ConvertError("PipelineState(depth, phase=None) takes one or two arguments")
        return PipeState(args[0], args[1] if len(args) > 1 else None, line, warps)
    if name == "SmemDescriptor" and mod in SMEM_DESC_MODULES:
        if args:
            raise ConvertError("SmemDescriptor() takes no arguments")
        return SmemDescObj(line)
    return None


def add_16B_offset(desc: SmemDescObj):
    def f(units):
        if not isinstance(units, int) or isinstance(units, bool):
            raise ConvertError(f"add_16B_offset({units!r}): not an integer")
        # The add is on the low 32 bits (uint32 wrap, no carry into the upper fields), whose
        # bits 0-13 are the start address >> 4 (PTX ISA §9.7.16.4.1): an offset that alone
        # exceeds that field would reach the LBO field, refused.
        if not 0 <= units < (1 << 14):
            raise ConvertError(f"add_16B_offset({units}): outside the 14-bit start-address field")
        return SmemDescOffset(desc, units)
    return f


class TirLocal:
    """A declared scalar variable (`x: T.int32`): `value` is what it holds at this point of the
    walk (an Unresolved before the first assignment the walk follows exactly).  It is per-thread:
    an assignment in a branch on thread indices holds for the warps running that branch
    (`valid_for`; None: every warp), and a read by other warps is unresolved."""

    def __init__(self, name: str, line: int, warps, value):
        self.name, self.line, self.value = name, line, value
        self.valid_for = warps
        self.set_line = line

    def set(self, value, warps, line: int) -> None:
        self.value, self.valid_for, self.set_line = value, warps, line

    def get(self, thread):
        from kernel_env import Unresolved
        vf = self.valid_for
        if vf is not None and not isinstance(self.value, Unresolved):
            cur = {thread[0]} if thread is not None else WALK["warps"]
            if cur is None or not set(cur) <= set(vf):
                return Unresolved(self.name, self.set_line, f"assigned at line {self.set_line} by warps "
                                  f"{sorted(vf)} only; read by other warps")
        return self.value

    def lose(self, line: int, why: str, cause=None) -> None:
        from kernel_env import Unresolved
        if not isinstance(self.value, Unresolved) or (self.value.line == self.line and
                                                      self.value.reason.startswith("declared without a value")):
            # (a declaration's own "no value yet" is replaced: the store is why it is unknown now;
            # `cause`, an undecided condition the store is under, is kept as `under`, so that a later
            # reason can name what that condition depends on; the item stays the store's)
            self.value = Unresolved(self.name, line, why)
            self.value.under = cause


# The warps the walk is in (kernel_walk sets it with Extraction.warps; None: every warp).
WALK = {"warps": None}
