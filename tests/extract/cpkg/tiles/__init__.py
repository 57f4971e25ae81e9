# The tile tasks of the test package, re-exported as the megakernel's tile_tasks/__init__.py does.
from .chunk_tile import ChunkTile
