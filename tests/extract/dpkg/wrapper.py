"""The driver of the test package's tile tasks (written for tirx-verify's extraction tests): a
wrapper class built once, at module level's `build`, whose `set_tiles` constructs each tile."""
from dpkg.cfg import CONFIG
from dpkg.tiles import BatchTile, DrvTile, TwiceTile


class Wrapper:
    A_TYPE = "float16"

    def __init__(self, config, extra):
        self.blk_n = config.get("BLK_N", None)
        self.acc = config["ACC"]
        self.extra = extra

    def set_tiles(self, batch):
        self.tile = DrvTile(self.A_TYPE, self.blk_n, acc_cols=self.acc)
        self.first = TwiceTile(64)
        self.second = TwiceTile(128)
        self.rows = BatchTile(batch)


def build(extra):
    return Wrapper(config=CONFIG, extra=extra)
