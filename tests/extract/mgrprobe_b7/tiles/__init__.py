from .tile import ProbeTile
