"""`Tx.copy_async(tmem, smem, shape=..., multicast=...)`: the tcgen05.cp shape a tile copy asks for.

Read at apache/tvm 5d4dc87 python/tvm/backend/cuda/tile_primitive/copy_async/tcgen05_cp.py.  With
`shape=` the plan is built for that shape only (_build_plan, 331-333) and the multicast comes from
_resolve_cp_shape (196-220) over the table _CP_SHAPE_MULTICASTS (126-132):

    128x256b, 4x256b, 128x128b: no multicast      64x128b: warpx2::02_13 or warpx2::01_23
    32x128b: warpx4

an unknown shape is an error (201-204); without `multicast=` the shape's only multicast is taken, and
a shape with two (64x128b) is an error (205-212); a multicast the shape does not allow is an error
(213-219).  The op's `shape` field is the instruction's spelling: the shape, then `.` and the
multicast when there is one (`64x128b.warpx2::02_13`, as hw/tcgen05_cp.cpp's table names them).

Without `shape=` TVM infers the shape from the layouts (_CP_SHAPE_CANDIDATES, 143-150; 334-346), the
tile copy's derived plan as before: no field.  `multicast=` alone filters that inference (338-339),
which the extraction does not follow: refused.  Either option on a copy that is not a tcgen05.cp is
refused (its meaning there is not this one).
"""
from __future__ import annotations

from kernel_env import ConvertError

OPTIONS = ("shape", "multicast")
MULTICASTS = {"128x256b": ("",), "4x256b": ("",), "128x128b": ("",),
              "64x128b": ("warpx2::02_13", "warpx2::01_23"), "32x128b": ("warpx4",)}


def field(kw: dict, dispatch) -> str | None:
    """Pop shape= / multicast= from kw; the op's `shape` field (None without shape=)."""
    if not any(k in kw for k in OPTIONS):
        return None
    shape, multicast = kw.pop("shape", None), kw.pop("multicast", None)
    if dispatch != "tcgen05.cp":
        given = ", ".join(k for k, v in (("shape", shape), ("multicast", multicast)) if v is not None)
        raise ConvertError(f"option(s) {given} on a {dispatch} copy: only their tcgen05.cp meaning is known (not "
                           "modelled by the model format)")
    if shape is None:
        raise ConvertError(f"multicast={multicast!r} without shape=: TVM infers the tcgen05.cp shape from the layouts "
                           "among the shapes with that multicast (tcgen05_cp.py:334-346), which is not derived here")
    shape = str(shape)
    allowed = MULTICASTS.get(shape)
    if allowed is None:
        raise ConvertError(f"tcgen05.cp shape={shape!r} is not one TVM knows ({', '.join(sorted(MULTICASTS))}; "
                           "tcgen05_cp.py:201-204)")
    if multicast is None:
        if len(allowed) != 1:
            raise ConvertError(f"tcgen05.cp shape={shape!r} needs multicast= ({' or '.join(allowed)}): TVM refuses it "
                               "without one (tcgen05_cp.py:205-212)")
        multicast = allowed[0]
    elif str(multicast) not in allowed:
        raise ConvertError(f"tcgen05.cp shape={shape!r} with multicast={multicast!r}: TVM allows "
                           f"{' or '.join(repr(a) for a in allowed)} (tcgen05_cp.py:213-219)")
    multicast = str(multicast)
    return shape + ("." + multicast if multicast else "")
