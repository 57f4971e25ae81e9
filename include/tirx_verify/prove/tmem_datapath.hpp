// tirx_verify/prove/tmem_datapath.hpp — recognising the TMEM data-path layouts and the register
// fragments TIRx's tcgen05 copy dispatcher pairs them with.
//
// TIRx's copy dispatcher (spec tirx_semantics (h); TVM copy_async/tcgen05_ldst.py) decides
// which tcgen05.ld/st to emit by structural comparison of canonical layouts:
//
//   TMEM layout (rows, cols) equal to                     classified as
//   tmem_datapath_layout("D", 128, cols)                  Layout D, sub_slab 0
//   tmem_datapath_layout("B", 64, cols)   (cols even)     Layout B, sub_slab 0
//   tmem_datapath_layout("F", 64, cols, s), s = 0, 1      Layout F, sub_slab s
//
//   register fragment (rows, cols) equal to               instruction
//   tcgen05_atom_layout(".16x64b|.16x128b|.16x256b")      that shape, .num from cols
//   tcgen05_atom_layout("32x32b", ...)                    .32x32b (64 rows: the B image)
//
// For example a (64, 32) float32 TMEM buffer S[(4,16,32):(32@TLane,1@TLane,1@TCol)] + 16@TLane
// is Layout F sub_slab 1 (its rows sit in the upper 16-lane half of each warp's sub-partition,
// PTX ISA 9.1 §9.7.16.10.5), which the dispatcher reads with row immediate 16.
//
// Both the layout check tmem.datapath (one buffer + --access) and the kernel check
// kernel.tmem-datapath (ops of a model) use these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tirx_verify/hw/tcgen05_ldst.hpp"
#include "tirx_verify/hw/tcgen05_mma.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/layout.hpp"

namespace tirx::prove {

struct TmemDatapathClass {
  hw::Datapath dp = hw::Datapath::D;
  int sub_slab = 0;
  std::string name;  // "Layout D", "Layout F sub_slab 1", ...
};

// Classifies a TMEM layout of logical shape (rows, cols) whose TCol offset has been removed
// (`stripped`: the window's first column is the caller's business). nullopt when it is none of
// the table's layouts. Never throws for a well-formed layout.
std::optional<TmemDatapathClass> classify_tmem_datapath(const TileLayout& stripped, std::int64_t rows,
                                                        std::int64_t cols);

struct Tcgen05Fragment {
  std::string shape;     // "16x64b", "16x128b", "16x256b", "32x32b"
  hw::LdStInstr instr;   // shape and .num of one issue per half-slab (no pack)
};

// Matches a register fragment of logical shape (rows, cols) and dtype against
// tcgen05_atom_layout for the four shapes the dispatcher uses; nullopt when none is equal.
// A ComposeLayout never matches.
std::optional<Tcgen05Fragment> match_tcgen05_fragment(const Layout& frag, std::int64_t rows, std::int64_t cols,
                                                      const DType& dtype);

}  // namespace tirx::prove
