"""Layouts: :class:`TileLayout` and :class:`ComposeLayout`, with TVM's names and argument orders.

Any layout argument of this package may be a layout, a :class:`~tirx_verify.LayoutSpec`
(``S[...] + R[...]``), notation text in any form the CLI reads (builder form, TVM's printed
form, factory calls, method chains; docs/notation.md), or any object whose ``str()`` is one of
those -- so a TVM ``TileLayout``/``ComposeLayout`` can be passed as it is.

Units: extents and strides on ``m``/``TCol``/``F`` count elements, on ``TLane`` lanes, on
thread axes threads (or warps, warpgroups, CTAs). ``apply`` returns ``{axis name: value}``.
Errors: :class:`~tirx_verify.InputError` (``check_id`` ``layout.syntax`` /
``layout.well-formed`` / ``swizzle.legal`` ...) for anything the library refuses.
"""

from . import _core
from ._builder import Iter, LayoutSpec
from .axis import Axis
from .errors import _input_error


def _axis_name(axis):
    if axis is None:
        return None
    return axis.name if isinstance(axis, Axis) else Axis.get(axis).name


def _ints(xs, what):
    out = []
    for x in xs:
        if isinstance(x, bool) or not isinstance(x, int):
            raise _input_error("layout.well-formed", f"{what} must hold integers, got {x!r}")
        out.append(x)
    return out


def _wrap(h):
    if h is None:
        return None
    return ComposeLayout._from_handle(h) if h.is_compose else TileLayout._from_handle(h)


def as_layout(obj, params=None) -> "Layout":
    """A :class:`Layout` for ``obj`` (a layout, a LayoutSpec, notation text, or an object whose str()
    is notation, such as a TVM layout). ``params`` binds names used in notation text."""
    if isinstance(obj, Layout):
        return obj
    if isinstance(obj, LayoutSpec):
        return TileLayout(obj)
    text = obj if isinstance(obj, str) else str(obj)
    return _wrap(_core.Layout.parse(text, dict(params or {})))


def _h(obj):
    return as_layout(obj)._h


class Layout:
    """Common base of TileLayout and ComposeLayout (immutable; every operation returns a new layout)."""

    __slots__ = ("_h",)

    @classmethod
    def _from_handle(cls, h):
        self = object.__new__(cls)
        self._h = h
        return self

    # ---- printing and comparison ----
    def __str__(self):
        """TVM's printed form (``T.TileLayout(T.S[(8, 4):(4 @ Axis.laneid, 1)])``)."""
        return self._h.to_str("tvm")

    def builder(self) -> str:
        """The builder form (``S[(8,4):(4@laneid,1)]``), what the CLI prints."""
        return self._h.to_str("builder")

    def __repr__(self):
        return self.builder()

    def __eq__(self, other):
        """Structural equality (same iters, offsets and swizzle; use equivalent() for the same map)."""
        try:
            return self._h == as_layout(other)._h
        except Exception:  # noqa: BLE001 -- not a layout: not equal
            return NotImplemented

    def __hash__(self):
        return hash(self._h)

    # ---- queries ----
    @property
    def shard(self):
        """Shard iters, outermost first, as :class:`Iter`."""
        return [Iter(e, s, a) for e, s, a in self._h.shard]

    @property
    def replica(self):
        return [Iter(e, s, a) for e, s, a in self._h.replica]

    replicate = replica  # TVM's field name

    @property
    def offset(self):
        """{axis name: offset}."""
        return dict(self._h.offset)

    def size(self, axis=None) -> int:
        """Logical elements (shard extents), or the product of the shard extents on ``axis``."""
        return self._h.size(_axis_name(axis))

    def span(self, axis=None) -> int:
        """1 + sum (e-1)*stride over shard and replica iters (+ offset), on ``axis`` or over all memory axes."""
        return self._h.span(_axis_name(axis))

    def _check_domain(self, coord, shape):
        """The CLI's domain rule (tirx-verify apply without --extrapolate): the coordinate names an
        element -- flat index in [0, size); per-iter coordinates in [0, extent); logical coordinates
        in [0, shape[d]) whose row-major flat index is in [0, size)."""
        size = self._h.size(None)
        hint = "pass extrapolate=True for TVM's unchecked arithmetic"
        if shape is not None:
            if len(coord) != len(shape):
                return  # the library reports the rank mismatch
            flat = 0
            for d, (c, e) in enumerate(zip(coord, shape)):
                if not 0 <= c < e:
                    raise _input_error("cli.usage", f"logical coordinate {c} of dimension {d} is outside [0, {e}) "
                                       f"(shape {list(shape)})", note=hint)
                flat = flat * e + c
            if flat >= size:
                raise _input_error("cli.usage", f"logical coordinate {list(coord)} flattens (row-major over shape "
                                   f"{list(shape)}) to element {flat}, outside [0, {size})", note=hint)
        elif len(coord) == 1:
            if not 0 <= coord[0] < size:
                raise _input_error("cli.usage", f"flat index {coord[0]} is outside [0, {size}): the layout has "
                                   f"{size} elements", note=hint)
        elif len(coord) == len(self._h.shard):
            for k, (c, (e, _, _)) in enumerate(zip(coord, self._h.shard)):
                if not 0 <= c < e:
                    raise _input_error("cli.usage", f"coordinate {c} of shard iter {k} is outside [0, {e}) (its extent)",
                                       note=hint)

    def apply(self, *coord, shape=None, extrapolate=False) -> dict:
        """TVM's three forms: ``apply(flat)``; ``apply(c0, c1, ...)`` one coordinate per shard iter;
        ``apply(*coord, shape=(...))`` logical coordinates of a buffer of that shape. Returns
        {axis name: value} without replicas (see :meth:`replicas`). A coordinate outside the layout's
        domain is an InputError unless ``extrapolate=True`` (TVM's unchecked arithmetic, e.g.
        ``ComposeLayout(3, 3, 3, S[512:1]).apply(600, extrapolate=True) == {"m": 592}``), as the CLI's
        ``apply --extrapolate`` (docs/semantics-differences.md)."""
        if len(coord) == 1 and isinstance(coord[0], (tuple, list)):
            coord = tuple(coord[0])
        coord = _ints(coord, "apply's coordinates")
        if shape is not None:
            shape = _ints(shape, "shape")
        if not extrapolate:
            self._check_domain(coord, shape)
        if shape is not None:
            return self._h.apply_shape(coord, shape)
        if len(coord) == 1:
            return self._h.apply_flat(coord[0])
        return self._h.apply_iters(coord)

    def replicas(self, *coord, shape=None, extrapolate=False) -> list:
        """Every physical image of one element (replica copies included; swizzle applied), as dicts;
        the coordinate forms and the domain rule of :meth:`apply`."""
        if len(coord) == 1 and isinstance(coord[0], (tuple, list)):
            coord = tuple(coord[0])
        coord = _ints(coord, "replicas' coordinates")
        if shape is not None:
            shape = _ints(shape, "shape")
        if not extrapolate:
            self._check_domain(coord, shape)
        if shape is not None:
            return self._h.images_shape(coord, shape)
        if len(coord) == 1:
            return self._h.images(self._h.split(coord[0]))
        return self._h.images(coord)

    def apply_to_shape(self, coord, input_shape) -> list:
        """Per-shard-iter digits of ``coord`` interpreted against ``input_shape`` (TVM apply_to_shape)."""
        return self._h.apply_to_shape(_ints(coord, "coord"), _ints(input_shape, "input_shape"))

    def get_scope(self):
        """(inner, outer) execution scope names, e.g. ("thread", "warp"); None without thread axes.
        InputError for a broken scope chain."""
        return self._h.get_scope()

    def verify_well_formed(self) -> bool:
        """True, or InputError naming what is wrong (TVM never returns False either)."""
        return self._h.verify_well_formed()

    def info(self, cuda_target=False) -> dict:
        """size, span, replicas, per-axis size/span, scope, canonical form, well-formedness in one dict
        (what ``tirx-verify info`` prints)."""
        d = self._h.info(cuda_target)
        d["canonical"] = _wrap(d["canonical"])
        return d

    # ---- algebra ----
    def canonicalize(self, cuda_target=False) -> "Layout":
        """TVM canonicalize(); ``cuda_target=True`` also fuses thread axes as under ``with Target("cuda")``."""
        return _wrap(self._h.canonicalize(cuda_target))

    def tile(self, outer, outer_shape, inner_shape, cuda_target=False) -> "Layout":
        return _wrap(self._h.tile(_h(outer), _ints(outer_shape, "outer_shape"), _ints(inner_shape, "inner_shape"),
                                  cuda_target))

    def tile_to(self, to_shape, current_shape) -> "Layout":
        return _wrap(self._h.tile_to(_ints(to_shape, "to_shape"), _ints(current_shape, "current_shape")))

    def slice(self, shape, region, cuda_target=False):
        """The sub-layout of ``region`` (one (begin, end) per dimension, or range objects); None when
        it is not representable (TVM returns None too)."""
        reg = [(r.start, r.stop) if isinstance(r, range) else tuple(r) for r in region]
        return _wrap(self._h.slice(_ints(shape, "shape"), reg, cuda_target))

    def direct_sum(self, left, left_shape, right_shape) -> "Layout":
        return _wrap(self._h.direct_sum(_h(left), _ints(left_shape, "left_shape"), _ints(right_shape, "right_shape")))

    def is_direct_sum_right(self, sum_layout, interleaved_shape, right_shape):
        return _wrap(self._h.is_direct_sum_right(_h(sum_layout), list(interleaved_shape), list(right_shape)))

    def is_direct_sum_left(self, sum_layout, interleaved_shape, left_shape):
        return _wrap(self._h.is_direct_sum_left(_h(sum_layout), list(interleaved_shape), list(left_shape)))

    def is_tile_inner(self, tile_layout, tiled_shape, inner_shape, cuda_target=False):
        """The outer layout if this is the inner tile of ``tile_layout``, else None."""
        return _wrap(self._h.is_tile_inner(_h(tile_layout), list(tiled_shape), list(inner_shape), cuda_target))

    def is_tile_outer(self, tile_layout, tiled_shape, outer_shape, cuda_target=False):
        """The inner layout if this is the outer tiling of ``tile_layout``, else None."""
        return _wrap(self._h.is_tile_outer(_h(tile_layout), list(tiled_shape), list(outer_shape), cuda_target))

    def storage(self) -> "Layout":
        return _wrap(self._h.storage())

    def pack(self, num) -> "Layout":
        return _wrap(self._h.pack(num))

    def unpack(self, num) -> "Layout":
        return _wrap(self._h.unpack(num))

    def broadcast(self, num, position=-1, axis="m") -> "Layout":
        """A declared broadcast (stride-0 iter of extent ``num``): a read-only view; layout.injective accepts it."""
        return _wrap(self._h.broadcast(num, position, _axis_name(axis)))

    def is_swizzle(self) -> bool:
        return self._h.is_compose


class TileLayout(Layout):
    """Shard + replica + offset over named axes (TVM ``TileLayout``): ``TileLayout(S[...] + R[...] + off)``."""

    __slots__ = ()

    def __init__(self, spec):
        if isinstance(spec, Layout):
            if spec._h.is_compose:
                raise _input_error("layout.well-formed", "TileLayout() of a ComposeLayout")
            self._h = spec._h
            return
        if not isinstance(spec, LayoutSpec):
            lay = as_layout(spec)
            if lay._h.is_compose:
                raise _input_error("layout.well-formed", "TileLayout() of a ComposeLayout")
            self._h = lay._h
            return
        shard, replica, offset = spec.to_iters()
        self._h = _core.Layout.from_iters(shard, replica, offset)

    @staticmethod
    def from_iters(shard=(), replica=(), offset=None) -> "TileLayout":
        """From :class:`Iter` lists and {axis or name: value} (TVM TileLayout.from_iters)."""
        def tup(it):
            return it.as_tuple() if isinstance(it, Iter) else Iter(*it).as_tuple()

        off = {_axis_name(k): v for k, v in (offset or {}).items()}
        return TileLayout._from_handle(_core.Layout.from_iters([tup(i) for i in shard], [tup(i) for i in replica], off))

    @classmethod
    def trainium(cls, annotation, shape, is_psum=False) -> "TileLayout":
        """Trainium SBUF (or PSUM) layout from a "PF" annotation and a shape (TVM TileLayout.trainium)."""
        return cls._from_handle(_core.Layout.trainium(annotation, _ints(shape, "shape"), is_psum))

    def to_psum(self) -> "TileLayout":
        """The PSUM bank form: F strides past 512 elements go to the Bank axis (TVM to_psum)."""
        return TileLayout._from_handle(self._h.to_psum())

    def group(self, shape):
        """(grouped layout, separators): shard split so blocks line up with ``shape``."""
        lay, seps = self._h.group(_ints(shape, "shape"))
        return TileLayout._from_handle(lay), list(seps)

    def group_many(self, shapes):
        lay, seps = self._h.group_many([_ints(s, "shape") for s in shapes])
        return TileLayout._from_handle(lay), [list(s) for s in seps]

    def permute_dims(self, perm) -> "TileLayout":
        return TileLayout._from_handle(self._h.permute_dims(list(perm)))

    def permute_by_groups(self, seps, perm) -> "TileLayout":
        return TileLayout._from_handle(self._h.permute_by_groups(list(seps), list(perm)))

    def is_trivial(self) -> bool:
        return not self._h.replica and not self._h.offset and all(a == "m" for _, _, a in self._h.shard)


class ComposeLayout(Layout):
    """An XOR swizzle over a tile on ``m`` (TVM ``ComposeLayout(per_element, swizzle_len, atom_len,
    tile_layout, swizzle_inner=True)``)."""

    __slots__ = ()

    def __init__(self, per_element, swizzle_len, atom_len, tile_layout=None, swizzle_inner=True):
        tile = as_layout(tile_layout) if tile_layout is not None else TileLayout(
            LayoutSpec(shard=((1 << (per_element + swizzle_len + atom_len),), (1,))))
        self._h = _core.Layout.compose(per_element, swizzle_len, atom_len, tile._h, swizzle_inner)

    @property
    def per_element(self) -> int:
        return self._h.swizzle[0]

    @property
    def swizzle_len(self) -> int:
        return self._h.swizzle[1]

    @property
    def atom_len(self) -> int:
        return self._h.swizzle[2]

    @property
    def swizzle_inner(self) -> bool:
        return self._h.swizzle[3]

    @property
    def tile_layout(self) -> TileLayout:
        return TileLayout._from_handle(self._h.tile_layout)
