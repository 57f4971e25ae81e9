# The tile tasks of the test package, re-exported as the megakernel's tile_tasks/__init__.py does.
from .choice_tile import ChoiceTile
from .keep_tile import KeepTile
from .run_tile import RunTile
