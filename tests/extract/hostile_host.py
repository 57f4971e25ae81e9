"""Test input written for tirx-verify's extraction tests (not from any kernel repository): hostile host
code around a launch: a negative tensor size, a 2**140-element tensor, a view of the wrong size, a
negative slice step, a transpose of a dimension that does not exist, encoder calls with too few and
wrong arguments, a launch argument that divides by zero.  Every one is refused with its reason or
left out; the extraction answers (exit 3) and never crashes."""
import torch
import ctypes
from tvm.script import tirx as Tx

class _S:
    def __init__(self):
        self.ptr = 0

def get_kernel():
    @Tx.prim_func
    def k(m: Tx.TensorMap, n: Tx.int32, o_h: Tx.handle):
        o = Tx.match_buffer(o_h, (n, 4), "float32")
        Tx.evaluate(0)
    return k

def run_test():
    import tvm
    t = torch.zeros((3, -1))
    u = torch.empty((2 ** 70, 2 ** 70))
    v = torch.zeros((4, 4)).view(3, -1)
    w = torch.zeros((4, 4))[::-1]
    x = torch.zeros((4, 4)).transpose(0, 9)
    s = _S()
    enc = tvm.get_global_func("runtime.cuTensorMapEncodeTiled")
    enc(s.ptr, "float32", 7, 0)
    enc(s.ptr, "float32", 2, ctypes.c_void_p(int(t.data_ptr())), 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0)
    z = torch.zeros((5, 4))
    executable = tvm.compile(get_kernel())
    executable.mod(s.ptr, z.shape[0] // 0, z)
    executable.mod(s.ptr, 5, z[1:, ::2])
