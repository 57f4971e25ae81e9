"""TVM's layout builder syntax: ``S[(8, 4):(4 @ Axis.laneid, 1)] + R[2:4 @ Axis.warpid] + 5 @ Axis.warpid``.

``S[...]`` and ``R[...]`` make a :class:`LayoutSpec`; ``+`` joins shard, replica and offsets
(integers are offsets on ``m``); ``TileLayout(spec)`` builds the layout. As a convenience a spec
also answers every layout method (``S[(8, 8):(8, 1)].apply(19)``), through ``TileLayout(spec)``.
Strides are integers, ``value @ Axis.x`` (or ``value @ "x"``), an axis name alone (stride 1), or
a ``(value, axis)`` pair; extents are positive integers. Only integer values: symbolic
extents/strides are written as notation text with ``params=`` (``check("S[(N, 64):(64, 1)]",
params={"N": 128})``).
"""

from .axis import Axis
from .errors import _input_error


def _int(v, what):
    if isinstance(v, bool) or not isinstance(v, int):
        raise _input_error("layout.well-formed",
                           f"{what} must be an integer, got {type(v).__name__} {v!r} "
                           "(symbolic values: use notation text with params=)")
    return v


class _OnAxis:
    """``value @ axis``: a stride or an offset on a named axis."""

    __slots__ = ("value", "axis")

    def __init__(self, value, axis):
        self.value = _int(value, "a value on an axis")
        self.axis = Axis.get(axis)

    def __add__(self, other):
        return _OffsetExpr.of(self) + other

    def __radd__(self, other):
        return _OffsetExpr.of(other) + self

    def __repr__(self):
        return f"{self.value} @ {self.axis!r}"


class _OffsetExpr:
    """A sum of per-axis offsets (``1 @ Axis.laneid + 2 @ Axis.warpid + 64``)."""

    __slots__ = ("terms",)

    def __init__(self, terms=None):
        self.terms = dict(terms or {})

    @staticmethod
    def of(x):
        if isinstance(x, _OffsetExpr):
            return x
        if isinstance(x, _OnAxis):
            return _OffsetExpr({x.axis.name: x.value})
        return _OffsetExpr({"m": _int(x, "an offset")})

    def __add__(self, other):
        if isinstance(other, LayoutSpec):
            return other.__radd__(self)
        o = _OffsetExpr.of(other)
        terms = dict(self.terms)
        for k, v in o.terms.items():
            terms[k] = terms.get(k, 0) + v
        return _OffsetExpr(terms)

    __radd__ = __add__


def _tuple(x):
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


def _iter_of(extent, stride):
    extent = _int(extent, "an extent")
    if isinstance(stride, _OnAxis):
        return (extent, stride.value, stride.axis.name)
    if isinstance(stride, Axis):
        return (extent, 1, stride.name)
    if isinstance(stride, str):
        return (extent, 1, Axis.get(stride).name)
    if isinstance(stride, tuple) and len(stride) == 2:
        return (extent, _int(stride[0], "a stride"), Axis.get(stride[1]).name)
    return (extent, _int(stride, "a stride"), "m")


def _iters(pair):
    if pair is None:
        return []
    extents, strides = pair
    if strides is None:  # extents only: row-major on m
        strides, acc = [], 1
        for e in reversed(extents):
            strides.append(acc)
            acc *= _int(e, "an extent")
        strides.reverse()
    if len(strides) != len(extents):
        raise _input_error("layout.well-formed",
                           f"{len(extents)} extents but {len(strides)} strides (TVM drops the extra extents silently; "
                           "tirx_verify refuses)")
    return [_iter_of(e, s) for e, s in zip(extents, strides)]


class LayoutSpec:
    """What ``S[...] + R[...] + offset`` builds; ``TileLayout(spec)`` turns it into a layout."""

    __slots__ = ("shard", "replica", "offset")

    def __init__(self, shard=None, replica=None, offset=None):
        self.shard, self.replica, self.offset = shard, replica, offset

    def __add__(self, other):
        if isinstance(other, LayoutSpec):
            return LayoutSpec(self.shard or other.shard, other.replica or self.replica,
                              _merge(self.offset, other.offset))
        if isinstance(other, (_OnAxis, _OffsetExpr, int)) and not isinstance(other, bool):
            return LayoutSpec(self.shard, self.replica, _merge(self.offset, other))
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, (_OnAxis, _OffsetExpr, int)) and not isinstance(other, bool):
            return LayoutSpec(self.shard, self.replica, _merge(other, self.offset))
        return NotImplemented

    def to_iters(self):
        """(shard, replica, offset) as the library takes them: lists of (extent, stride, axis name)
        and a dict axis name -> offset."""
        off = _OffsetExpr.of(self.offset).terms if self.offset is not None else {}
        return _iters(self.shard), _iters(self.replica), off

    def __getattr__(self, name):  # S[...].apply(...): the layout's methods
        if name.startswith("__"):
            raise AttributeError(name)
        from .layout import TileLayout

        return getattr(TileLayout(self), name)

    def __str__(self):
        from .layout import TileLayout

        return str(TileLayout(self))

    def __eq__(self, other):
        from .layout import TileLayout, as_layout

        return TileLayout(self) == as_layout(other)

    __hash__ = None


def _merge(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return _OffsetExpr.of(a) + b


class _SpecBuilder:
    __slots__ = ("_kind",)

    def __init__(self, kind):
        self._kind = kind

    def __getitem__(self, key):
        if isinstance(key, slice):
            if key.step is not None:
                raise _input_error("layout.syntax", f"{self._kind.upper()}[extents:strides] takes one ':'")
            pair = (_tuple(key.start), _tuple(key.stop))
        elif isinstance(key, (tuple, list)):
            pair = (tuple(key), None)
        else:
            pair = ((key,), None)
        return LayoutSpec(shard=pair) if self._kind == "s" else LayoutSpec(replica=pair)

    def __repr__(self):
        return self._kind.upper()


S = _SpecBuilder("s")
R = _SpecBuilder("r")


class Iter:
    """One strided walk (TVM ``Iter(extent, stride, axis)``), for ``TileLayout.from_iters``."""

    __slots__ = ("extent", "stride", "axis")

    def __init__(self, extent, stride, axis="m"):
        self.extent = _int(extent, "an extent")
        self.stride = _int(stride, "a stride")
        self.axis = Axis.get(axis)

    def as_tuple(self):
        return (self.extent, self.stride, self.axis.name)

    def __eq__(self, other):
        return isinstance(other, Iter) and self.as_tuple() == other.as_tuple()

    def __hash__(self):
        return hash(self.as_tuple())

    def __repr__(self):
        return f"Iter({self.extent}, {self.stride}, {self.axis!r})"
