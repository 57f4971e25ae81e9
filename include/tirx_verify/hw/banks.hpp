// tirx_verify/hw/banks.hpp — shared-memory banks and the wavefronts of one warp-wide access.
//
// Banks (CUDA Programming Guide, CC >= 5.x; spec §6): 32 banks of 4 bytes,
// bank(addr) = (addr / 4) % 32. One *wavefront* is one pass of the data banks: each bank
// returns one 4-byte word, 128 bytes in all. Reads of one word by several threads are a
// broadcast and cost nothing extra.
//
// The model (calibrated on an H200; every parameter is in the target file, smem.wavefront):
//   1. The warp's threads are cut into consecutive *phases* of P threads, P by access width:
//      phase_threads = {4: 32, 8: 16, 16: 8} (one phase per 128 requested bytes).
//   2. Uniform-pair shortcut, loads only: if for one mask k in uniform_pair_xor = {1, 2}
//      every active thread n whose partner n ^ k is active too has the partner's address, an
//      8- or 16-byte load (uniform_pair_widths) is served in phases twice as large (8 B: one
//      phase of 32 threads; 16 B: two of 16). Stores never merge.
//   3. A phase needs as many wavefronts as its busiest bank has distinct 4-byte words
//      requested (a w-byte access requests w/4 consecutive words). Inactive threads request
//      nothing; a phase with no active thread costs nothing.
//   4. wavefronts = sum over phases; ideal = sum over phases of
//      ceil(distinct words in the phase / banks) (a wavefront serves one word per bank);
//      excess = wavefronts - ideal, Nsight Compute's "bank conflicts" on a clean
//      micro-benchmark (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}).
//   5. ldmatrix / stmatrix: 16-byte row addresses in phases of ldmatrix_phase_rows = 8 (one
//      8x8 matrix per phase), no shortcut.
//
// Evidence (H200, ncu --clock-control none, 2026-11-30; spec §6.x, the readback campaign
// tests/golden/hw/h200_banks.json (114 patterns) and tests/golden/hw/h200_banks_pairs.json
// (20 patterns aimed at step 2) — all reproduced, see docs/sim.md):
//
//   access (one warp, 32 threads)                  textbook  H200  why
//   4 B word strides 1, 2, 8, 32, 33                1,2,8,32,1 same  step 3
//   16 B, rows 128 B apart / with 128B swizzle      32 / 4     same  steps 1, 3
//   8 B, every thread one address                   2          1     step 2 (pairs merge)
//   16 B, every thread one address                  4          2     step 2
//   16 B, T(n) == T(n^1), 16 chunks in 256 B        4          2     step 2
//   16 B, T(n) == T(n^4) or T(n^16)                 4          4     no shortcut for other masks
//   8 B, threads 16..31 repeat threads 0..15        2          2     no shortcut (n^16)
//   16 B store, every thread one address            4          4     stores never merge
//   16 B, T(n) == T(n^1), lane 1 inactive           4          2     inactive partners ignored
//   16 B contiguous, even lanes only                4 (0 cf)   4 (2 cf)  merged phases conflict
//   16 B, first half n^1 pairs, second half n^2     4          4     one k for the whole warp
//   ldmatrix.x4, all 32 row addresses identical     4          4     step 5
//
// (The CC 7.x forum rule "uniform-pair 128-bit loads take 2 requests instead of 4", spec
// §6, holds on the H200 and also for 64-bit loads; masks 3, 4, 8 and 16 do not merge.)
// A new measurement that disagrees changes the target file, not this code.
//
// count_wavefronts_reference() is a deliberately naive second implementation of steps 3-4
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
  bool is_store = false;  // st.shared (no uniform-pair shortcut)
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
// active thread's address not a multiple of the width.
void validate(const Target& target, const SmemAccess& access);

// The phase size the model uses for this access (steps 1-2).
int phase_threads(const Target& target, const SmemAccess& access);

// The calibrated model (header). Throws as validate().
WavefrontCount count_wavefronts(const Target& target, const SmemAccess& access);

// Steps 3-4 with an explicit phase size (1 <= phase_threads <= warp size), by brute force.
// Throws as validate().
WavefrontCount count_wavefronts_reference(const Target& target, const SmemAccess& access, int phase_threads);

// The textbook phase size for an access width: wavefront_bytes / width (32, 16, 8).
int textbook_phase_threads(const Target& target, int width_bytes);

// ldmatrix / stmatrix .m8n8 with num matrices (1, 2, 4): row_addresses[i] is 16-byte row i
// (i = 8 * matrix + row; thread i supplies it, PTX ISA 9.1 §9.7.14.5.15). Throws
// InputError("smem.access") for a count other than 8, 16 or 32 or an address that is not
// 16-byte aligned.
WavefrontCount ldmatrix_wavefronts(const Target& target, std::span<const std::uint64_t> row_addresses);

}  // namespace tirx::hw
