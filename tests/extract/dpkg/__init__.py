# A package written for tirx-verify's extraction tests (not from any kernel repository): tile-task
# classes in dpkg/tiles and the one "megakernel wrapper" (wrapper.py) that constructs them, as
# the megakernel's moe.py constructs GemmTile (tile_driver.py).
