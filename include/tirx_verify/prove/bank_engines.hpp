// tirx_verify/prove/bank_engines.hpp — smem.bank-conflicts decided three ways.
//
// The calibrated wavefront model (hw/banks.hpp, H200 readbacks in tests/golden/hw) counts the
// wavefronts of one warp-wide access by simulation. Two more engines decide the same model
// without looking at one access at a time:
//
// GF(2). When the active lanes form a cube c XOR span{e_b : b in E} (E a set of lane bits) and
// the byte address of an active lane is affine over GF(2), addr(l) = addr(c) XOR L (l XOR c),
// the 4-byte words a phase requests are the image of an affine map too. A thread moving w bytes
// requests words (addr >> 2) | j for j < w/4 (addr is w-aligned), so over the phase's lane bits
// (E below log2 P) and the j bits the word map has columns
//     (L e_b) >> 2  for the phase's lane bits,   e_t  for t < log2(w/4)
// with rank r_w (2^r_w distinct words), and the bank (word mod 32) of those columns has rank
// r_b: each of the 2^r_b banks hit holds 2^(r_w - r_b) words (cosets of one kernel), so
//     wavefronts per active phase = 2^(r_w - r_b),   ideal = ceil(2^r_w / 32),
// and there are 2^|E above log2 P| active phases. The uniform-pair load shortcut (masks k = 2^b
// in uniform_pair_xor, widths in uniform_pair_widths) applies when b is not in E (no active pair:
// vacuous, as the simulator reads it) or L e_b = 0. Example, 16-byte rows 128 B apart
// (addr = 128 l): the phase's 8 lanes give columns 32, 64, 128 (word units) whose bank bits are
// 0, so r_w = 3 + 2 (the j bits), r_b = 2: 2^3 = 8 wavefronts per phase, ideal 1.
//
// Z3. "Two active threads of one phase request one bank at different words" — exactly the
// model's excess > 0: a phase never requests more than 32 distinct words (P threads x w/4 words
// = 32; a merged phase has pairs on one address), so its ideal is 1 and any bank with two words
// costs an extra wavefront. Encoded in bit-vectors: two lanes, their word offsets, their phase
// (P, or 2P when the shortcut holds), bank equality and word inequality.
//
// The layout-level forms (buffer layout + access fragment, as smem.bank-conflicts reads them,
// docs/checks.md) are in check_bank_conflicts.cpp (gf2) and below (z3 over SymLayouts, so every
// --param binding — a pipeline stage at base k * stage_bytes is a parameter in the offset — is
// one query).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/layout/symbolic.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove::banks {

// The phases the calibrated model uses for one access kind.
struct PhaseModel {
  int width_bytes = 4;           // bytes per thread: 4, 8, 16 (ldmatrix rows: 16)
  int phase_threads = 32;        // P: threads per phase without the shortcut
  int merged_phase_threads = 0;  // 2P (at most the warp) when the uniform-pair shortcut may apply; 0: never
  std::vector<int> pair_masks;   // the shortcut's masks k (partner t ^ k)
};

// ld/st.shared of `width_bytes` (a store never merges). Throws InputError("smem.access") for a
// width the target does not model.
PhaseModel phase_model(const hw::Target& t, int width_bytes, bool is_store);
// ldmatrix / stmatrix .m8n8: 16-byte rows, ldmatrix_phase_rows per phase, no shortcut.
PhaseModel ldmatrix_phase_model(const hw::Target& t);

// The GF(2) count of one access (addresses: warp_size byte addresses, mask: active lanes), or
// the reason it does not apply (active lanes not a cube, addresses not affine, a pair mask or
// the bank count not a power of two). Equal to hw::count_wavefronts wherever it applies
// (tests/unit/prove_bank_engines_test.cpp, the smem.bank-engines property).
std::variant<hw::WavefrontCount, std::string> gf2_wavefronts(const hw::Target& t, const std::vector<std::uint64_t>& addresses,
                                                            std::uint64_t active_mask, const PhaseModel& m);

// Z3's answer for one access: kFail with the two lanes that collide (one phase, one bank,
// different words), kPass, or kUndecided naming the limit.
struct AccessVerdict {
  Status status = Status::kUndecided;
  std::string message;
  int lane_a = -1, lane_b = -1;
};
AccessVerdict z3_access(const hw::Target& t, const std::vector<std::uint64_t>& addresses, std::uint64_t active_mask,
                        const PhaseModel& m, const EngineLimits& limits);

// The layout-level Z3 query over symbolic layouts (every binding of `params` at once):
//   buffer  the shared buffer layout (m = element address, swizzle applied), elem_bytes per element
//   access  the register fragment over the same logical elements (thread axes + m = register
//           slot), each thread moving width_bytes = k elements per instruction (slots
//           [i k, i k + k) of instruction i)
// Questions, in this order (each "sat" ends the search with a binding and a reason):
//   vector  two slots of one thread's vector whose bytes are not consecutive, or a vector head
//           not width-aligned (the access is not one ld.shared per instruction);
//   conflict two threads of one warp, instruction and phase whose words differ in one bank —
//           first with P-thread phases (a conflict whatever the shortcut), then with 2P when the
//           shortcut may apply: a conflict there counts only if the shortcut holds for that
//           instruction (no active pair t, t ^ k with different addresses, for one k), asked per
//           found instruction and excluded when it does not hold (at most 16 rounds; then
//           undecided).
// Not covered symbolically: a vector with a missing slot (the concrete check at the reported
// binding and the sweep see it). Loads only (smem.bank-conflicts has no store form).
struct SymbolicAccess {
  SymLayout buffer;
  SymLayout access;
  std::vector<ParamRange> params;
  int elem_bytes = 0;
  int width_bytes = 0;
  MachineLimits machine;  // warp_size, warps_per_warpgroup (the thread index, fragment.hpp)
};
struct SymbolicVerdict {
  Status status = Status::kUndecided;
  std::string message;          // kPass: what was proved; kFail: the reason; kUndecided: the limit
  std::optional<Env> binding;   // kFail: a failing binding
  std::string kind;             // kFail: "vector" or "conflict"
  std::int64_t warp = -1, instruction = -1;  // kFail "conflict": where (at `binding`)
};
SymbolicVerdict z3_layout(const hw::Target& t, const SymbolicAccess& in, const EngineLimits& limits);

// A concrete layout as a SymLayout of constants (the form z3_layout takes).
SymLayout constant_layout(const Layout& l);

}  // namespace tirx::prove::banks
