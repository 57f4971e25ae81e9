"""The wrapper base of the test package's driver (written for tirx-verify's extraction tests):
`_add_tile` returns the tile it records, `run_tile` forwards its `*args` to the tile's `run`, and
the tile scheduler is stored by `init_sched`, as the megakernel's utils/base.py does."""


class SchedulerBase:
    pass


class WrapperBase:
    def __init__(self):
        self.tiles = []

    def _add_tile(self, tile):
        self.tiles.append(tile)
        return tile

    def _keep(self, tile):
        self.tiles.append(tile)

    def init_sched(self, sched_class):
        self.sched: SchedulerBase = sched_class()

    def run_tile(self, tile, *args, **kwargs):
        tile.run(*args, **kwargs)
