"""Named axes (TVM ``tvm.tirx.layout.Axis``): ``Axis.laneid``, ``Axis.get("TCol")``.

``value @ Axis.laneid`` makes a stride or an offset on an axis, as in TVM.
"""

from . import _core

# name -> (is_thread, scope, subscope), from the library's registry (layout/axis.hpp)
_REGISTRY = {name: (thread, scope, subscope) for name, thread, scope, subscope in _core.axes()}


class _AxisMeta(type):
    def __getattr__(cls, name):
        if name in _REGISTRY:
            return cls.get(name)
        raise AttributeError(f"Axis has no axis named {name!r} (registered: {', '.join(_REGISTRY)})")


class Axis(metaclass=_AxisMeta):
    """One registered axis. ``Axis.get(name)`` returns the same object each time."""

    __slots__ = ("name",)
    _instances: dict = {}

    def __init__(self, name):
        object.__setattr__(self, "name", name)

    @classmethod
    def get(cls, name: str) -> "Axis":
        """The axis named ``name``; ``KeyError`` if it is not registered (TVM registers unknown names
        silently and fails later; tirx_verify refuses them)."""
        if isinstance(name, Axis):
            return name
        if name not in _REGISTRY:
            raise KeyError(f"unknown axis {name!r}; registered: {', '.join(_REGISTRY)}")
        inst = cls._instances.get(name)
        if inst is None:
            inst = cls._instances[name] = cls(name)
        return inst

    def is_thread(self) -> bool:
        """True for thread axes (bx..wid_in_wg)."""
        return _REGISTRY[self.name][0]

    def is_memory(self) -> bool:
        """True for memory axes (m, P, F, Bank, TCol, TLane)."""
        return not _REGISTRY[self.name][0]

    def get_scope(self):
        """The outer execution scope of a thread axis ("warp" for laneid), None for memory axes."""
        return _REGISTRY[self.name][1]

    def get_subscope(self):
        """The inner execution scope of a thread axis ("thread" for laneid), None for memory axes."""
        return _REGISTRY[self.name][2]

    def __rmatmul__(self, value):
        from ._builder import _OnAxis

        return _OnAxis(value, self)

    def __setattr__(self, k, v):
        raise AttributeError("Axis objects are immutable")

    def __repr__(self):
        return f"Axis.{self.name}"

    __str__ = __repr__

    def __reduce__(self):
        return (Axis.get, (self.name,))
