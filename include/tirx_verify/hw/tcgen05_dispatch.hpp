// tirx_verify/hw/tcgen05_dispatch.hpp — which tcgen05.ld/st a warp issues to move a register
// fragment to or from a TMEM data-path layout.
//
// TIRx's copy dispatcher (spec tirx_semantics (h)) turns (TMEM data path, register fragment)
// into instructions; the simulator executes exactly these, so a fragment layout
// (tcgen05_atom_layout) can be checked against the bits the instructions really move.
// Per warp w (lane fields relative to the warp's first lane 32w):
//
//   TMEM layout          fragment                    issues (lane field, first register)
//   D (128 rows)         .32x32b, 128 rows           (32w, 0)
//   D                    .16x*b, 64 rows             (32w, 0)             lower half-slab
//   D                    .16x*b, 128 rows            (32w, 0), (32w+16, R)   R = regs per issue
//   F sub_slab s         .16x*b, 64 rows             (32w + 16 s, 0)
//   B (64 rows)          .32x32b, 64 rows (B image)  (32w, 0)  as .32x32b.x{N/2}
//
// Rejected with InputError("tmem.datapath"): sub_slab not in {0, 1}; sub_slab 1 with
// anything but F; F with .32x32b or a 128-row fragment (one half-slab holds 64 rows); B with
// a .16x*b shape or 128 rows; D with a 64-row .32x32b fragment; A, C, E, G (no dispatcher
// path). .16x32bx2 is never chosen by the dispatcher and is rejected here too.
#pragma once

#include <vector>

#include "tirx_verify/hw/tcgen05_ldst.hpp"
#include "tirx_verify/hw/tcgen05_mma.hpp"

namespace tirx::hw {

struct LdStIssue {
  TmemAddress address;  // taddr (lane field, column field)
  int first_reg = 0;    // where this issue's registers start in the thread's fragment
};

// The issues of warp `warp_in_wg` for `instr` (shape, num as the fragment needs per issue)
// between a TMEM buffer with data path `dp` / `sub_slab` at `base` (lane 0, its first column)
// and a fragment of `frag_rows` rows. Throws InputError("tmem.datapath") for the pairs above.
std::vector<LdStIssue> tcgen05_ldst_plan(const Target& target, Datapath dp, int sub_slab, const LdStInstr& instr,
                                         int frag_rows, TmemAddress base, int warp_in_wg);

}  // namespace tirx::hw
