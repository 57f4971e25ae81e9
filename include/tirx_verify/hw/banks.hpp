// tirx_verify/hw/banks.hpp — shared-memory banks and the wavefronts of one warp-wide access.
//
// Banks (CUDA Programming Guide, CC >= 5.x; spec §6): 32 banks of 4 bytes,
// bank(addr) = (addr / 4) % 32. One *wavefront* is one pass of the data banks: each bank
// returns one 4-byte word, 128 bytes in all. Reads of one word by several threads are a
// broadcast and cost nothing extra.
//
// The model (calibrated; parameters in the target file, smem.wavefront):
//   1. The warp's threads are cut into consecutive *phases* of P threads, P chosen by the
//      access width: phase_threads[4|8|16]. Inactive threads request nothing.
//   2. A phase needs as many wavefronts as the busiest bank has distinct 4-byte words
//      requested in that phase (an access of w bytes requests w/4 consecutive words).
//   3. wavefronts = sum over phases; ideal = sum over phases of
//      ceil(distinct words in the phase / banks) (a wavefront serves at most one word per
//      bank); excess = wavefronts - ideal, Nsight Compute's "bank conflicts" for a clean
//      micro-benchmark (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld).
//
// The textbook model (forum/GTC material, spec §6) uses P = 32/16/8 for 4/8/16-byte
// accesses (one phase per 128 requested bytes). The H200 disagrees for wide accesses
// (spec §6.x, measured 2026-11-30):
//
//   access (one warp, all 32 threads)          textbook  H200  this model (P = 32/32/16)
//   4 B contiguous                                1        1      1
//   4 B, stride 8 B                               2        2      2
//   4 B, word strides 1, 2, 8, 32, 33             1,2,8,32,1  same  same
//   4 B, stride 128 B                            32       32     32
//   16 B contiguous                               4        4      4
//   16 B, rows 128 B apart                       32       32     32   (ideal 4: 28 conflicts)
//   16 B, rows 128 B apart, 128B swizzle          4        4      4
//   ldmatrix.x4, 32 contiguous 16-byte rows       4        4      4
//   8 B, every thread the same address            2        1      1
//   16 B, every thread the same address           4        2      2
//
// i.e. on the H200 a phase covers 256 requested bytes for 8- and 16-byte accesses (32 and
// 16 threads), not 128. Merging phases never adds wavefronts, so this model is never above
// the textbook one. Accesses that would tell the two apart further are listed in
// docs/sim.md; a new measurement that disagrees changes the target file, not this code.
//
// count_wavefronts_reference() is a deliberately naive second implementation of steps 2-3
// for a given phase size (brute force over banks, threads and words), for tests.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tirx_verify/hw/target.hpp"

namespace tirx::hw {

// One warp-wide shared-memory access. addresses: one byte address per thread (warp_size of
// them), each a multiple of width_bytes. active_mask: bit t set = thread t takes part.
struct SmemAccess {
  int width_bytes = 4;  // 4, 8 or 16
  std::vector<std::uint64_t> addresses;
  std::uint64_t active_mask = ~std::uint64_t{0};
};

struct WavefrontCount {
  int wavefronts = 0;
  int ideal = 0;
  int excess() const { return wavefronts - ideal; }
  friend bool operator==(const WavefrontCount&, const WavefrontCount&) = default;
};

// bank(addr) = (addr / bank_bytes) % banks.
int bank_of(const Target& target, std::uint64_t byte_address);

// Throws InputError("smem.access"): width not 4/8/16; address count != warp_size; an
// address not a multiple of the width.
void validate(const Target& target, const SmemAccess& access);

// The calibrated model (header). Throws as validate().
WavefrontCount count_wavefronts(const Target& target, const SmemAccess& access);

// Steps 2-3 of the model with an explicit phase size (1 <= phase_threads <= warp size),
// computed by brute force. Throws as validate().
WavefrontCount count_wavefronts_reference(const Target& target, const SmemAccess& access, int phase_threads);

// The textbook phase size for an access width: wavefront_bytes / width (32, 16, 8).
int textbook_phase_threads(const Target& target, int width_bytes);

// ldmatrix / stmatrix .m8n8 with num matrices (1, 2, 4): row_addresses[i] is the 16-byte
// row i (i = 8 * matrix + row; thread i supplies it, PTX ISA 9.1 §9.7.14.5.15). Served like
// 16-byte accesses in phases of ldmatrix_phase_rows rows. Throws InputError("smem.access")
// for a count other than 8 * num or an address that is not 16-byte aligned.
WavefrontCount ldmatrix_wavefronts(const Target& target, std::span<const std::uint64_t> row_addresses);

}  // namespace tirx::hw
