# The tile tasks of the test package, re-exported as the megakernel's tile_tasks/__init__.py does.
from .batch_tile import BatchTile
from .drv_tile import DrvTile
from .mgr_tile import MgrTile
from .twice_tile import TwiceTile
