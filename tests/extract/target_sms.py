"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
a kern-DSL kernel whose tile rows follow the GPU's SM count, as a host dispatcher picks them:
`get_kernel(**kwargs)` with the configuration's keyword arguments, a `_case(**overrides)` row,
`spec.update({...comprehension...})`, and `hardware_num_sms()` when `sm_count` is None."""
from typing import Any

import tirx_kernels.kern as K

_GEOMETRY = {1: {"rows": 128, "warps": 4}, 2: {"rows": 64, "warps": 2}}


def _case(label: str, **overrides: Any) -> dict:
    row = {"label": label, "work": 100, "sm_count": None}
    row.update(overrides)
    return row


CONFIGS = [_case("default"), _case("forced", sm_count=512)]


def _sm_count(kwargs: dict) -> int:
    if kwargs.get("sm_count") is not None:
        return int(kwargs["sm_count"])
    from tirx_kernels.runner import hardware_num_sms

    return hardware_num_sms()


def _spec(kwargs: dict) -> dict:
    split = 2 if 2 * kwargs["work"] <= _sm_count(kwargs) else 1
    spec = {"SPLIT": split}
    spec.update({key.upper(): value for key, value in _GEOMETRY[split].items()})
    return spec


def _make(spec: dict):
    ROWS = spec["ROWS"]

    @K.kernel(warps=spec["WARPS"], arch="sm_100a", grid=(spec["SPLIT"],))
    def tile(out: K.gptr[K.bf16, (ROWS * 64,)]):
        smem = K.smem_pool()
        s_tile = smem.alloc((ROWS, 64), K.bf16, swizzle=K.SW128B, align=1024)
        smem.commit()

    return tile


def get_kernel(**kwargs: Any):
    return _make(_spec(kwargs))
