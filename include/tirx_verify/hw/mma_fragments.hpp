// tirx_verify/hw/mma_fragments.hpp — warp register fragments of mma.sync and wgmma (sm_90a).
//
// Element i of a thread's fragment: for 16-bit inputs two elements share one 32-bit
// register, register i / 2, element i even in bits 15..0; for f32 accumulators register i.
// g = t >> 2 (groupID), q = t & 3 (thread in group).
//
// mma.sync.aligned.m16n8k16, f16/bf16 inputs (PTX ISA 9.1 §9.7.14.5.8; CUTLASS
// SM80_16x8x16):
//   A 16x16 (i = 0..7):  row = g + 8 ((i >> 1) & 1)        col = 2q + (i & 1) + 8 (i >> 2)
//   B 16x8  (i = 0..3):  row(k) = 2q + (i & 1) + 8 (i >> 1)  col(n) = g
//   C/D 16x8 (i = 0..3): row = g + 8 (i >> 1)               col = 2q + (i & 1)
//
//     A, thread 5 (g 1, q 1):  i 0,1 -> (1,2),(1,3)   i 2,3 -> (9,2),(9,3)
//                              i 4,5 -> (1,10),(1,11) i 6,7 -> (9,10),(9,11)
//
// mma.sync.aligned.m16n8k8, f16/bf16 inputs (PTX ISA 9.1 §9.7.14.5.7, "Matrix Fragments for
// mma.m16n8k8"): the first K half of the m16n8k16 maps; C/D is m16n8k16's.
//   A 16x8  (i = 0..3):  row = g + 8 ((i >> 1) & 1)        col = 2q + (i & 1)
//   B 8x8   (i = 0..1):  row(k) = 2q + (i & 1)              col(n) = g
//
// wgmma.mma_async m64nNk16 (PTX §9.7.15.5.1.1.1; CUTLASS CLayout_64xN / ALayout_64x16),
// warp w of the warpgroup (w = warp_rank % 4) owns rows 16w .. 16w+15:
//   D 64xN (i = 0 .. N/2-1): row = 16w + g + 8 ((i >> 1) & 1)  col = 8 (i >> 2) + 2q + (i & 1)
//   A 64x16 from registers (i = 0..7): row = 16w + g + 8 ((i >> 1) & 1)
//                                      col = 2q + (i & 1) + 8 (i >> 2)
//
// ldmatrix .x4 feeding mma.sync A (§9.7.14.5.15): thread t passes &A[t % 16][8 (t / 16)]
// of a row-major 16x16 tile; then register j of ldmatrix is exactly mma A register j
// (tested in hw_mma_fragments_test.cpp by running both in the simulator).
//
// Errors: InputError("mma.shape") for t outside [0, 32), i outside the fragment, w outside
// [0, 4), N not a multiple of 8 in [8, 256].
#pragma once

namespace tirx::hw {

struct RowCol {
  int row = 0;
  int col = 0;
  friend bool operator==(const RowCol&, const RowCol&) = default;
};

RowCol mma_m16n8k16_a(int t, int i);  // (row m, col k)
RowCol mma_m16n8k16_b(int t, int i);  // (row k, col n)
RowCol mma_m16n8k16_c(int t, int i);  // (row m, col n)
RowCol mma_m16n8k8_a(int t, int i);   // (row m, col k), i in [0, 4)
RowCol mma_m16n8k8_b(int t, int i);   // (row k, col n), i in [0, 2)

RowCol wgmma_m64nNk16_d(int w, int t, int i, int n_total);  // (row m, col n)
RowCol wgmma_m64nNk16_a(int w, int t, int i);               // (row m, col k)

// Elements per thread (m16n8k16): A 8, B 4, C 4; wgmma D N/2, wgmma A 8.
inline constexpr int kMmaAElems = 8, kMmaBElems = 4, kMmaCElems = 4, kWgmmaAElems = 8;
// m16n8k8: A 4, B 2 (C as m16n8k16).
inline constexpr int kMmaK8AElems = 4, kMmaK8BElems = 2;

}  // namespace tirx::hw
