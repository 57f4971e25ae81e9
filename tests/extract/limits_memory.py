"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
forty tuples of 10**6 elements each (inside the evaluator's per-value bound, about 320 MB in
all), so that an extraction under --memory-limit 100 runs out of memory: exit 3, no model."""
from tvm.script import tirx as T

A0 = tuple(range(100000)) * 10
A1 = A0[:999999] + (1,)
A2 = A1[:999999] + (1,)
A3 = A2[:999999] + (1,)
A4 = A3[:999999] + (1,)
A5 = A4[:999999] + (1,)
A6 = A5[:999999] + (1,)
A7 = A6[:999999] + (1,)
A8 = A7[:999999] + (1,)
A9 = A8[:999999] + (1,)
A10 = A9[:999999] + (1,)
A11 = A10[:999999] + (1,)
A12 = A11[:999999] + (1,)
A13 = A12[:999999] + (1,)
A14 = A13[:999999] + (1,)
A15 = A14[:999999] + (1,)
A16 = A15[:999999] + (1,)
A17 = A16[:999999] + (1,)
A18 = A17[:999999] + (1,)
A19 = A18[:999999] + (1,)
A20 = A19[:999999] + (1,)
A21 = A20[:999999] + (1,)
A22 = A21[:999999] + (1,)
A23 = A22[:999999] + (1,)
A24 = A23[:999999] + (1,)
A25 = A24[:999999] + (1,)
A26 = A25[:999999] + (1,)
A27 = A26[:999999] + (1,)
A28 = A27[:999999] + (1,)
A29 = A28[:999999] + (1,)
A30 = A29[:999999] + (1,)
A31 = A30[:999999] + (1,)
A32 = A31[:999999] + (1,)
A33 = A32[:999999] + (1,)
A34 = A33[:999999] + (1,)
A35 = A34[:999999] + (1,)
A36 = A35[:999999] + (1,)
A37 = A36[:999999] + (1,)
A38 = A37[:999999] + (1,)
A39 = A38[:999999] + (1,)


@T.prim_func
def kernel(A: T.Buffer((len(A39), 64), "float16")):
    pass
