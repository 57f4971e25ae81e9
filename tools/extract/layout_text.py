"""A layout as data: the iters of a printed layout, and TIRx's grouping of them by a shape.

The views TIRx derives from a buffer (`Buffer.permute`, `.sub[...]`, `.rearrange`) operate on
the iters of the buffer's layout, grouped by the buffer's shape (apache/tvm 5d4dc87
python/tvm/tirx/_buffer_view.py: `permute` 153-161, `_view_drop` 419-437, `_view_narrow`
440-496).  This file holds that data and nothing else:

    text  --(tirx-verify print: factories expanded)-->  S[(64,8,64):(64,4096,1)] inside
    ComposeLayout(3, 3, 3, ...)  --parse-->  Lay(shard=[(64,64,m), (8,4096,m), (64,1,m)],
                                                 swizzle=(3, 3, 3, True))

    group((64, 512)) splits the shard, innermost first, into one run of iters per dimension:
        dim 1 (512) = (8,4096,m) (64,1,m)      dim 0 (64) = (64,64,m)
    an iter that straddles two dimensions is split in two when one extent divides the
    other ((E, s) -> (E/k, k s) (k, s)); otherwise the shape does not group the layout and
    the view is refused, as TVM's `Layout.group` refuses it.

The text of factory calls (mma_shared_layout, default_tmem_layout, ...) is expanded by the
`tirx-verify` binary (`print`: the notation's own evaluator, so nothing is re-implemented
here); `tool_path()` says which binary.  Without one the derived views stay unresolved.
"""
from __future__ import annotations

import os
import re
import subprocess

from kernel_env import ConvertError

_TOOL: list = [None]          # set by extract.py --layout-tool
_CACHE: dict = {}
MEMORY_AXIS = "m"


def set_tool(path: str | None) -> None:
    _TOOL[0] = path


def tool_path() -> str | None:
    """The tirx-verify binary: --layout-tool, else $TIRX_VERIFY_BIN, else ROOT/build/tirx-verify."""
    for p in (_TOOL[0], os.environ.get("TIRX_VERIFY_BIN"),
              os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           "build", "tirx-verify")):
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def printed(text: str) -> str:
    """The layout in builder notation with factories expanded (`tirx-verify print TEXT`)."""
    if text in _CACHE:
        return _CACHE[text]
    tool = tool_path()
    if tool is None:
        raise ConvertError("deriving this view needs the layout's iters, and no tirx-verify binary was found "
                           "to expand the layout (run through `tirx-verify extract`, or set TIRX_VERIFY_BIN)")
    try:
        r = subprocess.run([tool, "print", text, "--time-limit", "20"], capture_output=True, text=True,
                           timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        raise ConvertError(f"tirx-verify print failed on {text!r}: {e}") from None
    if r.returncode != 0:
        msg = (r.stderr or r.stdout).strip().splitlines()
        raise ConvertError(f"the layout {text!r} is refused by the notation: {msg[0] if msg else r.returncode}")
    _CACHE[text] = r.stdout.strip()
    return _CACHE[text]


class Lay:
    """shard / replica: [(extent, stride, axis)] outermost first; offset: {axis: int};
    swizzle: (per_element, swizzle_len, atom_len, swizzle_inner) of a ComposeLayout, or None."""

    def __init__(self, shard, replica, offset, swizzle):
        self.shard, self.replica, self.offset, self.swizzle = list(shard), list(replica), dict(offset), swizzle

    def text(self) -> str:
        shard = [it for it in self.shard if it[0] != 1] or [(1, 0, MEMORY_AXIS)]
        out = _spec("S", shard)
        if self.replica:
            out += " + " + _spec("R", self.replica)
        for ax, v in self.offset.items():
            if v:
                out += f" + {_stride(v, ax)}"
        if self.swizzle is not None:
            p, b, s, inner = self.swizzle
            out = f"ComposeLayout({p}, {b}, {s}, {out}" + ("" if inner else ", swizzle_inner=False") + ")"
        return out


def _stride(s: int, ax: str) -> str:
    return str(s) if ax == MEMORY_AXIS else f"{s}@{ax}"


def _spec(kind: str, iters) -> str:
    if len(iters) == 1:
        e, s, ax = iters[0]
        return f"{kind}[{e}:{_stride(s, ax)}]"
    return (f"{kind}[(" + ",".join(str(e) for e, _, _ in iters) + "):(" +
            ",".join(_stride(s, ax) for _, s, ax in iters) + ")]")


_NUM = r"-?\d+"
_STRIDE = re.compile(rf"^({_NUM})(?:@(\w+))?$")


def _iters(body: str, what: str):
    m = re.fullmatch(r"\((.*)\):\((.*)\)|([^:()]+):([^:()]+)", body.strip())
    if m is None:
        raise ConvertError(f"cannot read the iters of {what}")
    ext = (m.group(1) or m.group(3)).split(",")
    st = (m.group(2) or m.group(4)).split(",")
    ext = [e.strip() for e in ext if e.strip()]
    st = [s.strip() for s in st if s.strip()]
    if len(ext) != len(st):
        raise ConvertError(f"cannot read the iters of {what}")
    out = []
    for e, s in zip(ext, st):
        sm = _STRIDE.match(s)
        if not re.fullmatch(_NUM, e) or sm is None:
            raise ConvertError(f"{what} has a symbolic or unreadable iter ({e}:{s})")
        out.append((int(e), int(sm.group(1)), sm.group(2) or MEMORY_AXIS))
    return out


def parse(text: str) -> Lay:
    """The Lay of a layout text (any notation form: it is expanded by `printed` first)."""
    p = printed(text)
    swz = None
    m = re.fullmatch(r"ComposeLayout\((\d+),\s*(\d+),\s*(\d+),\s*(.*?)(,\s*swizzle_inner=(True|False))?\)", p)
    if m is not None:
        swz = (int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(6) != "False")
        p = m.group(4)
    shard, replica, offset = None, [], {}
    for term in _terms(p):
        if term.startswith("S["):
            shard = _iters(term[2:-1], p)
        elif term.startswith("R["):
            replica = _iters(term[2:-1], p)
        else:
            sm = _STRIDE.match(term)
            if sm is None:
                raise ConvertError(f"cannot read the offset {term!r} of {p!r}")
            ax = sm.group(2) or MEMORY_AXIS
            offset[ax] = offset.get(ax, 0) + int(sm.group(1))
    if shard is None:
        raise ConvertError(f"cannot read the shard of {p!r}")
    return Lay(shard, replica, offset, swz)


def _terms(p: str):
    out, depth, cur = [], 0, ""
    i = 0
    while i < len(p):
        c = p[i]
        depth += c in "[(" 
        depth -= c in "])"
        if depth == 0 and p.startswith(" + ", i):
            out.append(cur.strip())
            cur, i = "", i + 3
            continue
        cur += c
        i += 1
    out.append(cur.strip())
    return out


def group(lay: Lay, shape) -> list:
    """The shard split into one list of iters per dimension of shape (TVM's Layout.group)."""
    iters = [it for it in lay.shard if it[0] != 1]
    groups = []
    for d in reversed(list(shape)):
        need, g = d, []
        while need > 1:
            if not iters:
                raise ConvertError(f"the shape {tuple(shape)} has more elements than the layout {lay.text()}")
            e, s, ax = iters.pop()
            if need % e == 0:
                g.insert(0, (e, s, ax))
                need //= e
            elif e % need == 0:
                g.insert(0, (need, s, ax))
                iters.append((e // need, s * need, ax))
                need = 1
            else:
                raise ConvertError(f"the shape {tuple(shape)} does not group the layout {lay.text()}: dimension "
                                   f"{d} and the iter ({e}:{_stride(s, ax)}) do not divide each other")
        groups.insert(0, g)
    if iters:
        raise ConvertError(f"the layout {lay.text()} has more elements than the shape {tuple(shape)}")
    return groups
