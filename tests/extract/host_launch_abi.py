"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): the
launch's ABI after a specialization.  `_kernel.specialize(mode=..., extra_h=None)` binds the
constexpr `mode` and removes the optional `extra_h` from the signature, so the launch
`executable(*_launch_args(data))` passes (rows_h, out, n, width): its helper builds a list
(`args = [...]`, `args += [...]`, `return tuple(args)`), one element a torch.tensor built from a
display.  `n` takes the launch's 48 and `rows` its shape from it; the tensor passed for rows_h
agrees with the match_buffer."""
import torch
from tvm.script import tirx as T

CONFIGS = [{"count": 48}]


@T.prim_func
def _kernel(rows_h: T.handle, extra_h: T.Optional[T.handle], out: T.Buffer((8,), "int32"), n: T.int32, width: T.int32,
            mode: T.constexpr):
    rows = T.match_buffer(rows_h, (n, width), "int32")
    T.evaluate(rows.data)


def get_kernel():
    return _kernel.specialize(mode=1, extra_h=None)


def prepare_data(count):
    rows = torch.zeros((count, 4), dtype=torch.int32, device="cuda")
    lengths = torch.tensor([count, 4], dtype=torch.int32)
    out = torch.empty((8,), dtype=torch.int32, device="cuda")
    return {"rows": rows, "lengths": lengths, "count": count, "out": out}


def _launch_args(data):
    args = [data["rows"], data["out"]]
    args += [data["count"], data["rows"].shape[1]]
    return tuple(args)


def run_test(count):
    data = prepare_data(count)
    executable = compile_kernel(get_kernel())
    executable(*_launch_args(data))


def compile_kernel(f):
    import tvm

    return tvm.compile(f, target="cuda")
