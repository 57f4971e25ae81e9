// Logical coordinates to shard digits (apply_to_shape.hpp).
#include "tirx_verify/layout/apply_to_shape.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

ShardDigits shard_digits(const TileLayout& l, std::span<const std::int64_t> coord, std::span<const std::int64_t> shape) {
  if (coord.size() != shape.size())
    throw InputError("layout.well-formed",
                     fmt::format("apply: {} coordinates for a shape of rank {}", coord.size(), shape.size()));
  if (auto g = try_group(l, shape)) {
    // Grouped: each logical coordinate is split over the iters of its own block only.
    ShardDigits out{std::move(g->layout), {}, true};
    out.digits.assign(out.layout.shard.size(), 0);
    for (std::size_t d = 0; d < shape.size(); ++d) {
      const std::size_t b = g->seps[d], e = g->seps[d + 1];
      std::int64_t rem = coord[d];
      if (rem < 0) throw InputError("layout.bounds", fmt::format("coordinate {} is negative", rem));
      for (std::size_t k = e; k-- > b + 1;) {
        out.digits[k] = rem % out.layout.shard[k].extent;
        rem /= out.layout.shard[k].extent;
      }
      if (e > b) out.digits[b] = rem;
    }
    return out;
  }
  // Fallback: flatten row-major over `shape`, then split over the raw shard extents.
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < shape.size(); ++d)
    flat = checked_add(checked_mul(flat, shape[d], "flatten"), coord[d], "flatten");
  return ShardDigits{l, l.split(flat), false};
}

std::vector<std::int64_t> apply_to_shape(const TileLayout& l, std::span<const std::int64_t> coord,
                                         std::span<const std::int64_t> shape) {
  return shard_digits(l, coord, shape).digits;
}

}  // namespace tirx
