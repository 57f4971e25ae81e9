// tirx_verify/layout/info.hpp — the facts TVM's layout queries answer, in one value
// (`tirx-verify info`, the Python module's Layout methods).
//
//   info(S[(8,4,2):(4@laneid,1@laneid,1)])
//     size 64; per axis: laneid size 32 span 32, m size 2 span 2; span (memory axes) 2;
//     scope (thread, warp); canonical S[(32,2):(1@laneid,1)]; well-formed
//
// Units: sizes count logical elements (shard extents); spans are in the axis's own unit
// (elements on m/TCol/F, lanes on TLane, threads/warps on thread axes), TVM's span definition
// (tile_layout.hpp): 1 + sum (e-1)*|s| over shard and replica iters + the axis offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tirx_verify/layout/layout.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

struct AxisInfoOf {
  Axis axis;
  std::int64_t size = 1;  // TileLayout::size(axis)
  std::int64_t span = 1;  // TileLayout::span(axis)
};

struct LayoutInfo {
  std::int64_t size = 0;            // logical elements (replicas not counted)
  std::int64_t span = 0;            // over all memory axes together (TVM span())
  std::int64_t replicas = 1;        // product of the replica extents
  std::vector<AxisInfoOf> axes;     // every axis the layout uses, registry order
  std::optional<ScopePair> scope;   // get_scope(); nullopt without a thread axis in the shard
  bool well_formed = false;         // verify_well_formed()
  std::string error_id, error;      // when not well-formed (or the scope chain is broken)
  std::optional<Layout> canonical;  // canonicalize(opt); absent when it throws
  bool compose = false;             // a ComposeLayout (XOR swizzle over a tile)
};

// Never throws for a validated layout: a broken scope chain or failed canonicalization is
// reported in `well_formed` / `error_id` / `error` (the InputError's id and message).
LayoutInfo layout_info(const Layout& l, const CanonicalizeOptions& opt = {});

}  // namespace tirx
