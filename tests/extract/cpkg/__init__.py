# A package written for tirx-verify's extraction tests (not from any kernel repository): a tile
# task (tiles/chunk_tile.py) whose shared-memory chunks are guarded by one mbarrier word per chunk
# that its manager (chunks.py) owns, and the driver (kwrap.py) that sets the manager up on the
# device before its tile loop, as the megakernel's moe.py calls SmemManager.init (mgr_init.py).
