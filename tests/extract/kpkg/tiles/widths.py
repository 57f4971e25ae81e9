# Written for tirx-verify's extraction tests: a relative import of kpkg.tiles.shapes.
ROW_BYTES = 128
