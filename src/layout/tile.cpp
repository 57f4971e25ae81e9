// tile / tile_to — each element of an outer layout becomes a copy of an inner tile
// (TVM TileLayoutNode::Tile, tile_tile_ops.cc).
//
//   inner S[(2,4):(1,2)] over (2,4), outer S[(8,8):(8,1)] over (8,8):
//     group          inner (2,1) | (4,2)          outer (8,8) | (8,1)
//     scale outer    inner span on m is 8         outer (8,64) | (8,8)
//     interleave     (8,64),(2,1) | (8,8),(4,2)   = a (16,32) tensor
//     canonicalize   S[(8,2,32):(64,1,2)]
//
// Outer iters on an axis the inner shard does not use keep their stride: that is how thread
// layouts shard a tile, e.g. S[(1,2):(2,1)].tile(S[(8,4):(4@laneid,1@laneid)], [8,4], [1,2])
// = S[(32,2):(1@laneid,1)].
#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "layout/ops_util.hpp"

namespace tirx {

namespace {

TileLayout tile_tiles(const TileLayout& inner_in, const TileLayout& outer_in,
                      std::span<const std::int64_t> outer_shape, std::span<const std::int64_t> inner_shape,
                      const CanonicalizeOptions& opt) {
  if (outer_shape.size() != inner_shape.size())
    throw InputError("layout.well-formed",
                     fmt::format("tile: outer_shape has {} dimensions but inner_shape has {}",
                                 outer_shape.size(), inner_shape.size()));
  detail::checked_shape_size(outer_shape, "tile", "outer_shape");
  detail::checked_shape_size(inner_shape, "tile", "inner_shape");
  const Grouped outer = group(canonicalize(outer_in, opt), outer_shape);
  const TileLayout inner_canon = canonicalize(inner_in, opt);
  const Grouped inner = group(inner_canon, inner_shape);

  // Outer strides on axes the inner shard uses advance by whole inner tiles. The axes and
  // spans come from the canonical inner: our group() drops an all-unit shard's (1,1,axis)
  // iter, TVM's keeps it for extent-1 dimensions, and TVM scales by that axis's span.
  std::vector<Iter> outer_shard = outer.layout.shard;
  for (Iter& it : outer_shard) {
    bool inner_uses = false;
    for (const Iter& in : inner_canon.shard) inner_uses = inner_uses || in.axis == it.axis;
    if (inner_uses) it.stride = checked_mul(it.stride, inner_canon.span(it.axis), "tile stride");
  }

  TileLayout out;
  for (std::size_t d = 0; d < outer_shape.size(); ++d) {
    out.shard.insert(out.shard.end(), outer_shard.begin() + static_cast<std::ptrdiff_t>(outer.seps[d]),
                     outer_shard.begin() + static_cast<std::ptrdiff_t>(outer.seps[d + 1]));
    out.shard.insert(out.shard.end(),
                     inner.layout.shard.begin() + static_cast<std::ptrdiff_t>(inner.seps[d]),
                     inner.layout.shard.begin() + static_cast<std::ptrdiff_t>(inner.seps[d + 1]));
  }
  out.replica = inner.layout.replica;
  out.replica.insert(out.replica.end(), outer.layout.replica.begin(), outer.layout.replica.end());
  out.offset = inner.layout.offset;
  for (const auto& e : outer.layout.offset.entries())
    out.offset.set(e.axis, checked_add(out.offset.get(e.axis), e.value, "tile offset"));
  return canonicalize(out, opt);
}

}  // namespace

Layout tile(const Layout& inner, const TileLayout& outer, std::span<const std::int64_t> outer_shape,
            std::span<const std::int64_t> inner_shape, const CanonicalizeOptions& opt) {
  if (!inner.is_compose()) return Layout(tile_tiles(inner.tile(), outer, outer_shape, inner_shape, opt));
  const ComposeLayout& c = inner.as_compose();
  c.swizzle.validate();
  return Layout(ComposeLayout(
      c.swizzle, tile_tiles(detail::compose_base(c, inner_shape, "tile"), outer, outer_shape, inner_shape, opt)));
}

Layout tile_to(const Layout& l, std::span<const std::int64_t> to_shape, std::span<const std::int64_t> cur_shape,
               const CanonicalizeOptions& opt) {
  if (to_shape.size() != cur_shape.size())
    throw InputError("layout.well-formed",
                     fmt::format("tile_to: target shape has {} dimensions but the current shape has {}",
                                 to_shape.size(), cur_shape.size()));
  detail::checked_shape_size(cur_shape, "tile_to", "current shape");
  std::vector<std::int64_t> factor(to_shape.size());
  for (std::size_t d = 0; d < to_shape.size(); ++d) {
    if (to_shape[d] < 1 || to_shape[d] % cur_shape[d] != 0)
      throw InputError("layout.well-formed",
                       fmt::format("tile_to: target extent {} of dimension {} is not a positive multiple "
                                   "of the current extent {}",
                                   to_shape[d], d, cur_shape[d]));
    factor[d] = to_shape[d] / cur_shape[d];
  }
  return tile(l, TileLayout::row_major(factor), factor, cur_shape, opt);
}

}  // namespace tirx
