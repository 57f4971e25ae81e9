# Test module written for tirx-verify's extraction tests (not from any kernel repository): the
# specialization record, its heuristic and a builder that forwards to kernel.build_kernel.
from dataclasses import dataclass
from enum import IntEnum

__all__ = ["Kind", "Spec", "build_kernel"]

BLOCK_K = 64


class Kind(IntEnum):
    NORMAL = 0
    BATCHED = 1

    @property
    def is_batched(self) -> bool:
        return self in (Kind.BATCHED,)


@dataclass(frozen=True)
class Spec:
    kind: Kind
    block_m: int
    stages: int

    @property
    def rows(self) -> int:
        return self.block_m * (2 if self.kind.is_batched else 1)


def best_spec(kind, m):
    block_m = 64 if m <= 64 else 128
    return Spec(kind, block_m, 2 if kind.is_batched else 3)


def build_kernel(spec):
    from .kernel import build_kernel as _build

    return _build(spec)


__all__ += ["BLOCK_K", "best_spec"]
