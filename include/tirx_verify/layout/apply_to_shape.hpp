// tirx_verify/layout/apply_to_shape.hpp — logical coordinates to per-shard-iter digits
// (TVM Layout.apply_to_shape, python/tvm/tirx/layout.py).
//
// The digit split behind TileLayout::apply(coord, shape): if the shard can be grouped by
// `shape` (group(), ops.hpp), coord[d] is split mixed-radix over the iters of its own block
// (the block's outermost iter takes the undivided remainder); otherwise the coordinate is
// flattened row-major over `shape` and split over the raw shard extents.
//
//   from_iters([Iter(16,16,m), Iter(4,4,m), Iter(4,1,m)]).apply_to_shape([5,7], [16,16]) = [5,1,3]
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tirx_verify/layout/tile_layout.hpp"

namespace tirx {

struct ShardDigits {
  TileLayout layout;                  // the grouped layout (or the layout itself, ungrouped)
  std::vector<std::int64_t> digits;   // one per iter of layout.shard
  bool grouped = false;
};

// Throws InputError("layout.well-formed") when coord and shape differ in length,
// InputError("layout.bounds") for a negative coordinate, and on int64 overflow of the flat index.
ShardDigits shard_digits(const TileLayout& l, std::span<const std::int64_t> coord, std::span<const std::int64_t> shape);

// TVM's apply_to_shape: shard_digits(...).digits.
std::vector<std::int64_t> apply_to_shape(const TileLayout& l, std::span<const std::int64_t> coord,
                                         std::span<const std::int64_t> shape);

}  // namespace tirx
