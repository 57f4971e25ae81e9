// tirx_verify/props/generators.hpp — RapidCheck generators of valid layouts and factory calls.
//
// The property campaign (properties.hpp) draws its inputs from here. Every generator builds
// only *valid* values (a generated layout passes verify_well_formed(), a generated factory call
// is accepted by the factory), so a failing property always points at the engine, never at
// the generator. Generators are RapidCheck combinators throughout, so a failing case shrinks
// to a small counterexample: fewer iters, extents and strides toward 1, 0 and small numbers,
// axes toward `m`, no replica, no offset.
//
//   generator                  draws                                         e.g.
//   gen_tile_layout(opt)       1..6 shard iters, 0..2 replica iters and      S[(3,8,2):(1@laneid,4,-2@TCol)]
//                              0..2 offsets over the axes of `opt.axes`      + R[2:64@TCol] + 5@laneid
//   gen_compose_layout(opt)    legal (M, B, S), both swizzle_inner values,   ComposeLayout(1, 2, 3,
//                              a tile on axis m                              S[(7,16):(16,1)] + 32)
//   gen_factory_call()         one legal call of every layout factory        tcgen05_atom_layout("16x64b",
//                              (datapath, rows, cols, sub_slab, atom shape,  (64, 32), "float32")
//                              .num, dtype, swizzle mode)
//
// Extents come from {1, 2, 3, 4, 5, 7, 8, 16, 32, 112, 160} (non-powers of two included);
// strides from small values around 0 (zero and negative included) and powers of two.
// `opt.max_points` bounds size() x replica_count() so a property can afford to evaluate every
// element; the generator picks each extent within the budget left.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/layout.hpp"

namespace tirx::props {

// One of `items`, shrinking toward items[0] (rc::gen::element/elementOf never shrink). Call it
// where `*gen` is allowed (inside rc::gen::exec or a property). List the "small" choice first.
template <class T>
T pick(const std::vector<T>& items) {
  return items[*rc::gen::inRange<std::size_t>(0, items.size())];
}
template <class T>
T pick(std::initializer_list<T> items) {
  return pick(std::vector<T>(items));
}

// Which axes a generated layout may use.
enum class AxisPool {
  kMemoryM,     // m only (a ComposeLayout tile, a shared-memory buffer)
  kMemory,      // m, TLane, TCol, P, F (memory axes)
  kTmem,        // TLane, TCol
  kMixed,       // memory axes plus one consistent chain of thread axes (see below)
};

struct LayoutGenOptions {
  AxisPool axes = AxisPool::kMixed;
  int min_shard = 1, max_shard = 6;
  int max_replica = 2;     // 0..max_replica replica iters
  int max_offsets = 2;     // 0..max_offsets offset entries
  std::int64_t max_points = 4096;  // size() * replica_count() <= this
  bool negative_offsets = true;
  // Power-of-two extents (1..32), strides (0, 1..1024) and offsets only: the fragment the GF(2)
  // engine decides (when no two digits of one axis overlap).
  bool pow2 = false;
};

// A valid TileLayout (see the header). With AxisPool::kMixed the thread axes of one layout form
// a contiguous piece of one scope chain, so get_scope() succeeds on the layout and on its
// canonical form (close_scope_chain):
//   laneid -> warpid -> cbx          (thread -> warp -> cta -> cluster)
//   laneid -> wid_in_wg -> wgid      (thread -> warp -> warpgroup -> cta)
//   tid_in_wg -> wgid                (thread -> warpgroup -> cta)
//   tx                               (thread -> cta)
rc::Gen<TileLayout> gen_tile_layout(LayoutGenOptions opt = {});

// Makes the thread axes of `l` a contiguous piece of `chain` (narrowest first), as get_scope()
// needs (it walks the chain edge by edge), both for `l` as it is and for canonicalize(l): every
// chain axis strictly between the narrowest and the widest one `l` uses and that canonicalize
// would drop (or that is missing) gets a +1 offset. canonicalize keeps shard iters of extent
// > 1, the first shard iter when all have extent 1, replica iters and non-zero offsets.
//   S[1:1@cbx] + 1@laneid, chain laneid warpid cbx       -> S[1:1@cbx] + 1@laneid + 1@warpid
//   S[(2,1):(1@laneid,1@warpid)] + 1@cbx (warpid dropped) -> ... + 1@warpid + 1@cbx
void close_scope_chain(TileLayout& l, const std::vector<AxisId>& chain);

// A valid ComposeLayout: per_element M in [0, 4], swizzle_len B in [0, 3], atom_len S in
// [B, B + 3] (S >= B, the TVM rule), swizzle_inner either way, and a tile on axis m (replica
// iters and offsets on m included) drawn with `opt` (opt.axes is forced to kMemoryM).
rc::Gen<ComposeLayout> gen_compose_layout(LayoutGenOptions opt = {});

// A TileLayout or a ComposeLayout, about one in three a ComposeLayout.
rc::Gen<Layout> gen_layout(LayoutGenOptions opt = {});

// A logical shape the layout's shard can be grouped by (each dimension a product of adjacent
// shard extents, possibly split further), so apply(coord, shape) takes the grouped path.
rc::Gen<std::vector<std::int64_t>> gen_grouping_shape(const TileLayout& l);

// ---------------------------------------------------------------- factory calls

// One call of a layout factory, with its text in TVM spelling; build() calls the C++ factory.
struct FactoryCall {
  enum class Kind { kDatapath, kAtom, kWgLocal, kSfTmem, kSfSmem, kMmaShared, kDefaultTmem, kTmemOperand };
  Kind kind = Kind::kDatapath;
  std::string datapath;                  // kDatapath: "A".."G"
  std::string instr_shape;               // kAtom: "32x32b", "16x64b", ...
  std::int64_t rows = 0, cols = 0;
  int sub_slab = 0;
  std::string dtype;                     // TVM name
  SwizzleMode mode = SwizzleMode::kNone; // kMmaShared
  std::vector<std::int64_t> shape;       // kMmaShared / kTmemOperand
  std::int64_t sf_k = 0, sf_per_mma = 0, sf_reuse = 1;
  std::optional<std::int64_t> pipe_depth;
  TmemOperandArgs operand;               // kTmemOperand
  std::string operand_name;              // kTmemOperand: "A" or "D"

  // The call as a user writes it, e.g. tmem_datapath_layout("F", 64, 32, sub_slab=1).
  std::string text() const;
  // The C++ factory's result.
  Layout build() const;
};

// Legal arguments for one of the factories (each Kind about equally often).
rc::Gen<FactoryCall> gen_factory_call();

// tcgen05 register fragment x TMEM data path pairs the TIRx dispatcher moves with tcgen05.ld/st
// (spec tirx_semantics (h); hw/tcgen05_dispatch.hpp):
//   datapath D (128 rows): any shape with a 128-row fragment, or a .16x*b shape with a 64-row
//                          fragment (the lower half-slab of every warp)
//   datapath F (64 rows), sub_slab 0 or 1: a .16x*b shape with 64 rows
//   datapath B (64 rows): the .32x32b 64-row fp32 image (cols/2 columns in all 128 lanes)
// dtype float32 or float16; cols = .num x the repetition width (elements), .num a legal power
// of two (PTX ISA 9.1 Table 49) kept to at most 64 32-bit columns; load or store.
struct AtomPair {
  std::string instr_shape;  // "32x32b", "16x64b", "16x128b", "16x256b"
  std::int64_t rows = 128;  // fragment rows
  std::int64_t cols = 0;    // elements
  std::string dtype;        // "float32" or "float16"
  std::string datapath;     // "D", "F" or "B"
  int sub_slab = 0;
  int base_col = 0;         // first TMEM column of the buffer (32-bit columns)
  bool store = false;       // tcgen05.st (registers -> TMEM) instead of tcgen05.ld
};
rc::Gen<AtomPair> gen_atom_pair();

// RapidCheck prints counterexamples with these (found by argument-dependent lookup).
void showValue(const FactoryCall& c, std::ostream& os);
void showValue(const AtomPair& p, std::ostream& os);

}  // namespace tirx::props

namespace tirx {
// Counterexamples print layouts in builder notation (a string `tirx-verify` accepts).
void showValue(const TileLayout& l, std::ostream& os);
void showValue(const ComposeLayout& l, std::ostream& os);
void showValue(const Layout& l, std::ostream& os);
}  // namespace tirx
