// Internal: the symbolic engine's queries (z3_symbolic.cpp), used by check_symbolic.cpp, which
// turns them into CheckResults. No Z3 types here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tirx_verify/layout/symbolic.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove::symbolic {

// One coordinate range layout.bounds proves, with a bound that may use parameters.
//   swizzled = false: lo <= value(axis) < hi (hi absent: unbounded above)
//   swizzled = true : the swizzled m stays inside the tile footprint of bound_targets (ranges.cpp),
//                     computed per binding inside the query, capped by `hi` when present
struct Target {
  Axis axis;
  bool swizzled = false;
  std::int64_t lo = 0;
  std::optional<SymExpr> hi;
  std::string why;
};

struct Answer {
  Status status = Status::kUndecided;
  std::string message;          // kPass: the solver's note; kUndecided: the limit
  std::optional<Env> binding;   // kFail: a binding where the property fails
  std::size_t target = 0;       // bounds kFail: the violated target
  std::optional<std::int64_t> element;  // tmem_partition kFail: the buffer's flat element index
};

// The common bit width: 3 + the bits of the largest magnitude any term can take over `ranges`
// (every expression and subexpression, each axis's reach, the flat index, the `extra` terms),
// at least the swizzle's bits + 2. Throws NotSymbolic when a magnitude reaches 2^63 (int64 overflow).
unsigned width(const SymLayout& l, const std::vector<ParamRange>& ranges, const std::vector<SymExpr>& extra = {});

// Some extent < 1, or (when `size` is given) a layout size other than `size`.
Answer well_formed(const SymLayout& l, const std::vector<ParamRange>& ranges, std::optional<std::int64_t> size,
                   const EngineLimits& limits);
// Two points with different digits and equal storage cells. `allow_broadcast`: a shard digit
// whose stride is 0 at the binding is fixed at 0 (a declared broadcast view); otherwise it varies
// like any digit (strict injectivity).
Answer injective(const SymLayout& l, const std::vector<ParamRange>& ranges, Scope scope, bool allow_broadcast,
                 const EngineLimits& limits);
// The structural sufficient condition of injective_structural.cpp for every binding, with the
// iters taken in the fixed order `order` (indices: shard iters 0..n-1, then replica iters n..):
// each iter that moves a point (extent > 1; and, with `allow_broadcast`, stride != 0 for a shard
// iter — without it a stride-0 shard iter of extent > 1 breaks the condition) lies on a storage
// axis, and |stride| > the sum of (extent-1)*|stride| of the moving iters before it on its axis.
// kPass: injective for all bindings. kFail: the condition fails at `binding` (nothing is
// concluded about injectivity there). A params-only query: no digit variables.
Answer injective_structural(const SymLayout& l, const std::vector<ParamRange>& ranges, Scope scope,
                            const std::vector<std::size_t>& order, bool allow_broadcast, const EngineLimits& limits);

Answer bounds(const SymLayout& l, const std::vector<ParamRange>& ranges, const std::vector<Target>& targets,
              const EngineLimits& limits);

// A TileLayout with the structure of `l` (same iters, axes and offset axes; every extent 1 and
// every value 0), for the structural questions (axes(), storage_axes()).
TileLayout skeleton(const SymLayout& l);

// ---- Two layouts tied by the flat element index (z3_symbolic_pairs.cpp) ----
//
// Element e (0 <= e < size) of a layout has the shard digits of e split mixed-radix over its
// shard extents (the last iter fastest); two layouts are tied by flat(digits_a) = flat(digits_b).
// Replica copies of the OTHER side are expanded, not quantified: at most kMaxExpandedCopies
// digit assignments over the largest extents the ranges allow (a copy exists where every digit
// is below its extent at the binding). More copies: kUndecided naming that limit.
constexpr std::int64_t kMaxExpandedCopies = 256;

// tmem.partition (check_tmem_partition.cpp) for every binding: the buffer and the fragment have
// different sizes somewhere, or some element held by thread t of the fragment (fragment.hpp:
// t = tx + tid_in_wg + laneid + warp_size*(wid_in_wg + warpid) + warpgroup_size*wgid, its
// replica digits 0 as apply() gives) of warp w = (t / warp_size) % warps_per_warpgroup (C++
// truncating division, as the concrete check) has no copy on a TMEM lane in
// [part*w, part*(w+1)), part = tmem_lanes / warps_per_warpgroup (PTX ISA 9.1 §9.7.16.8.1).
Answer tmem_partition(const SymLayout& buffer, const SymLayout& fragment, const std::vector<ParamRange>& ranges,
                      const MachineLimits& ml, const EngineLimits& limits);

// layout.equivalent for every binding: the sizes differ somewhere, or some element has different
// image sets (every axis either layout uses, an unused one read as 0; m swizzled). When both
// layouts carry the same swizzle the tiles are compared instead (the swizzle is a bijection of m,
// so image sets agree after it exactly when they agree before it: no XOR is encoded).
// `size`: a fixed --shape product both sizes must equal (a binding where one differs is kFail too).
Answer equivalent(const SymLayout& a, const SymLayout& b, const std::vector<ParamRange>& ranges,
                  std::optional<std::int64_t> size, const EngineLimits& limits);

// tmem.datapath's only binding-dependent input when everything else is constant: the buffer's
// TCol offset `col` (elements). kFail at a binding where col < 0, col % epb != 0 or
// col / epb >= 65536 (a tcgen05 address keeps 16 bits of column, hw/tmem.hpp TmemAddress).
Answer tcol_base_outside(const SymExpr& col, int epb, const std::vector<ParamRange>& ranges, const EngineLimits& limits);

}  // namespace tirx::prove::symbolic
