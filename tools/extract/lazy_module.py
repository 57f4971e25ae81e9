"""A module imported on first use: `host_torch = LazyModule("host_torch")` at the top of a file
costs nothing until an attribute is read.  The extraction's launch-time modules (host_torch.py,
host_maps.py, partial_values.py, host_launch.py, kern_grid.py, role_order.py) are loaded so, which
keeps the start-up footprint of the tool (and so where a tight --memory-limit stops it: during
start-up, Python's MemoryError) what it was without them."""
import importlib


class LazyModule:
    def __init__(self, name: str):
        self._name, self._mod = name, None

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        if self._mod is None:
            self._mod = importlib.import_module(self._name)
        return getattr(self._mod, attr)
