# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): a @dataclass configuration with defaults, a @property and a method, a
# validate() that raises, dataclasses.fields/replace/asdict, an entry point taking **kwargs
# whose builder namespace T is imported inside it and used by a nested kernel and helper.
import math
from dataclasses import asdict, dataclass, fields, replace

SMEM_LIMIT = 232448


@dataclass(frozen=True)
class TileConfig:
    blk_m: int = 128
    blk_k: int = 64
    stages: int = 2
    label: str = "default"

    @property
    def row_bytes(self) -> int:
        return self.blk_k * 2

    def stage_rows(self, extra=0) -> int:
        return self.stages * self.blk_m + extra

    def validate(self) -> None:
        if self.blk_m not in (64, 128):
            raise ValueError("blk_m must be 64 or 128")
        if self.stage_rows() * self.row_bytes > SMEM_LIMIT:
            raise ValueError("the ring does not fit in shared memory")


class Plain:
    width = 3


CONFIGS = [{"blk_m": 128, "stages": 3, "label": "bench"}, {"blk_m": 64, "stages": 2, "label": "small"}]


def _make(**kwargs) -> TileConfig:
    names = {f.name for f in fields(TileConfig)}
    cfg = TileConfig(**{k: v for k, v in kwargs.items() if k in names})
    cfg.validate()
    return cfg


def get_kernel(**kwargs):
    from tvm.script import tirx as T
    from tvm.script import tirx as Tx

    cfg = _make(**kwargs)
    wide = replace(cfg, blk_k=cfg.blk_k * 2)
    d = asdict(wide)
    LOG_M = (cfg.blk_m - 1).bit_length()
    SW = int(math.log2(cfg.row_bytes)) - 4

    def load_stage(dst, src, s):
        Tx.copy_async(dst[s, :, :], src[0 : cfg.blk_m, :])

    @T.prim_func
    def kernel(A: T.Buffer((256, cfg.blk_k), "float16"), B: T.Buffer((256, d["blk_k"]), "float16")):
        pool = T.SMEMPool()
        Asmem = pool.alloc((cfg.stages, cfg.blk_m, cfg.blk_k), "float16",
                           layout=T.TileLayout(T.S[(cfg.stages, cfg.blk_m, cfg.blk_k):(cfg.blk_m * cfg.blk_k, cfg.blk_k, 1)]))
        Bsmem = pool.alloc((cfg.stages, 1 << LOG_M, wide.blk_k), "float16", swizzle=SW)
        Rows = pool.alloc((cfg.stage_rows(extra=16),), "float32", layout=T.TileLayout(T.S[cfg.stage_rows(16):1]))
        load_stage(Asmem, A, 0)
        load_stage(Bsmem, B, cfg.stages - 1)

    return kernel


def get_plain_kernel():
    from tvm.script import tirx as T

    width = Plain.width

    @T.prim_func
    def plain(A: T.Buffer((width, 8), "float16")):
        pool = T.SMEMPool()
        S = pool.alloc((width, 8), "float16", layout=T.TileLayout(T.S[(width, 8):(8, 1)]))

    return plain
