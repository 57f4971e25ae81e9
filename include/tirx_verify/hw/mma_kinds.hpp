// tirx_verify/hw/mma_kinds.hpp — what an MMA kind multiplies: its K per instruction, the
// element types of A, B and D, and which operand tile each CTA's shared-memory descriptor
// covers. For the kernel checks that compare an instruction with its buffers.
//
// tcgen05.mma (PTX ISA 9.1 §9.7.16.4.2 Table 42 "Instruction descriptor format for .kind::tf32,
// .kind::f16, .kind::f8f6f4 and .kind::i8", §9.7.16.10 and its block-scaling sections; K from
// §9.7.16.2.1 Table 39). Types in TVM spelling (tf32 operands are stored as float32):
//
//   kind        K (dense)  A / B                                   D
//   f16         16         float16, bfloat16                       float16, float32
//   tf32         8         float32 (read as tf32)                  float32
//   f8f6f4      32         float8_e4m3fn/e4m3, float8_e5m2,        float32
//                          float4_e2m1fn (E2M1; fp6 has no TVM dtype here)
//   i8          32         int8, uint8                             int32
//   mxf8f6f4    32         as f8f6f4 (block-scaled)                float32
//   mxf4        64         float4_e2m1fn                           float32
//   mxf4nvf4    64         float4_e2m1fn                           float32
//
// A sparse A doubles K. Table 42 lists D = F32 only for f8f6f4 (F16 and F32 for f16).
//
// Element size in shared memory, as the descriptor addresses it: f16 16 bits, tf32 32, i8 8;
// f8f6f4 and mxf8f6f4 8 bits for every type — E2M1 (and the 6-bit types) sit unpacked in
// 8-bit containers, 16 elements per 16-byte core-matrix row (PTX §9.7.16.10 "packing format
// for sub-byte types" of .kind::f8f6f4; CUTLASS float_e2m1_unpacksmem_t); mxf4 and mxf4nvf4
// read E2M1 packed, 4 bits each.
//
// With .cta_group::2 the instruction's M x N accumulator is split over the CTA pair: each CTA
// supplies M/2 rows of A and N/2 rows of B (N x K) through its own descriptors, at the same
// shared-memory addresses in both CTAs, and holds M/2 rows of D; the even CTA of the pair the
// first halves (PTX §9.7.16.10 with .cta_group::2; NVIDIA's tilus documentation of
// tcgen05.mma: "A = [a0; a1], each CTA provides (M/2, K); B = [b0, b1], each CTA provides
// (K, N/2)"; CUTLASS's 2-SM atoms SM100_MMA_*_2x1SM). So a 256 x 256 x 16 f16 MMA reads a
// 128 x 16 A tile and a 128 x 16 B tile in each CTA.
//
// wgmma.mma_async (PTX §9.7.15.5.1, §9.7.15.5.1.2): K = 16 for float16/bfloat16, 8 for tf32
// (float32 storage), 32 for float8_e4m3fn/float8_e5m2 and int8/uint8; A and B of one type
// family; an MN-major (transposed) operand in shared memory only for 16-bit types.
#pragma once

#include <string>
#include <string_view>

namespace tirx::hw {

enum class MmaKind { kF16, kTf32, kF8F6F4, kI8, kMxF8F6F4, kMxF4, kMxF4Nvf4 };
enum class MmaOperand { kA, kB, kD };

// "f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4" (the ".kind::" suffix).
// Throws InputError("tcgen05.shape") for anything else.
MmaKind parse_mma_kind(std::string_view text);
std::string_view to_string(MmaKind k);
bool is_block_scaled(MmaKind k);

// K of one tcgen05.mma of this kind (table above); twice that with a sparse A.
int tcgen05_mma_k(MmaKind k, bool sparse);
// Whether the kind takes elements of `dtype` (TVM spelling) for the operand.
bool tcgen05_kind_accepts(MmaKind k, MmaOperand op, std::string_view dtype);
// The accepted dtypes as text ("float16, bfloat16"), for messages.
std::string tcgen05_kind_dtypes(MmaKind k, MmaOperand op);
// Bits per A/B element in shared memory for this kind and type (table above).
int tcgen05_smem_element_bits(MmaKind k, std::string_view dtype);

struct MmaOperandRows {
  int a_rows = 0;  // rows of A (M direction) one CTA's A descriptor covers
  int b_rows = 0;  // rows of B (N direction) one CTA's B descriptor covers
};
// Per-CTA operand tiles of an M x N tcgen05.mma under .cta_group::1 or ::2 (header).
// Throws InputError("tcgen05.shape") for a cta_group other than 1/2 or an M/N it cannot halve.
MmaOperandRows tcgen05_operand_rows(int m, int n, int cta_group);

// K of one wgmma for A/B elements of `dtype`; 0 when wgmma has no such type.
int wgmma_k(std::string_view dtype);
// Whether wgmma may read a shared-memory operand of `dtype` MN-major (transposed).
bool wgmma_mn_major_allowed(std::string_view dtype);

}  // namespace tirx::hw
