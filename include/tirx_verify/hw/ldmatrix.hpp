// tirx_verify/hw/ldmatrix.hpp — ldmatrix / stmatrix .m8n8 .b16: row addresses and register fragments.
//
// PTX ISA 9.1 §9.7.14.5.15 (ldmatrix) and §9.7.14.5.16 (stmatrix); CUTLASS
// SM75_U32x{1,2,4}_LDSM_N / SM75_U16x{2,4,8}_LDSM_T (spec §6, §8.2).
//
// Each matrix is 8 rows x 8 16-bit elements = 8 rows of 16 bytes; rows need not be
// contiguous. With .x1/.x2/.x4 (num = 1, 2, 4 matrices):
//
//   address roles: thread 8j + i supplies the address of row i of matrix j (threads
//                  0..8*num-1; the others' addresses are ignored)
//
//   register j of thread t (one 32-bit register per matrix), g = t >> 2, q = t & 3:
//     no .trans: bits 15..0 = M_j[g][2q],     bits 31..16 = M_j[g][2q + 1]
//     .trans:    bits 15..0 = M_j[2q][g],     bits 31..16 = M_j[2q + 1][g]
//   (M_j[row][col] = the 16-bit element at row address + 2 col.)
//
//     thread:   0    1    2    3    4  ...  31
//     row g:    0    0    0    0    1  ...   7      (no .trans, register j)
//     cols:    0,1  2,3  4,5  6,7  0,1 ...  6,7
//
// stmatrix is the exact inverse: same address roles, same register <-> element map.
// Row addresses must be 16-byte aligned (smem.access otherwise).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tirx_verify/hw/registers.hpp"
#include "tirx_verify/hw/smem.hpp"
#include "tirx_verify/hw/target.hpp"

namespace tirx::hw {

struct LdmatrixInstr {
  int num = 4;         // matrices: 1, 2 or 4 (.x1, .x2, .x4)
  bool trans = false;  // .trans
};

// Throws InputError("ldmatrix.shape") unless num is 1, 2 or 4.
void validate(const LdmatrixInstr& in);

// (matrix, row) whose address thread t supplies; matrix = -1 if the thread supplies none.
struct RowRole {
  int matrix = -1;
  int row = 0;
};
RowRole ldmatrix_row_role(const LdmatrixInstr& in, int thread);

// The element behind half `half` (0 = bits 15..0, 1 = bits 31..16) of register `reg` of
// thread t, as (matrix, row, col) of the matrices as stored.
struct MatrixElement {
  int matrix = 0;
  int row = 0;
  int col = 0;
  friend bool operator==(const MatrixElement&, const MatrixElement&) = default;
};
MatrixElement ldmatrix_element(const LdmatrixInstr& in, int thread, int reg, int half);

// Executes ldmatrix: `addresses` holds one address per thread of the warp (warp_size);
// returns warp_size x num registers. Throws ldmatrix.shape, smem.access.
WarpRegisters ldmatrix(const Target& target, const SharedMemory& smem, const LdmatrixInstr& in,
                       std::span<const std::uint64_t> addresses);

// Executes stmatrix from `regs` (warp_size x num). Throws as ldmatrix and
// ldmatrix.shape for a register file of the wrong size.
void stmatrix(const Target& target, SharedMemory& smem, const LdmatrixInstr& in,
              std::span<const std::uint64_t> addresses, const WarpRegisters& regs);

}  // namespace tirx::hw
