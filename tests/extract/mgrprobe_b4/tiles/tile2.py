"""A second tile class for probe b4 (the driver runs it before ProbeTile in each loop pass)."""
from mgrprobe_b4.tiles.tile import ProbeTile


class ProbeTile2(ProbeTile):
    pass
