// group(): split shard iters so the shard partitions into blocks matching a logical shape.
//
// TVM's Group (tile_layout ops): walk the shard from the outermost iter keeping the product of
// the extents since the last block boundary. While that product is a multiple of shape[d], block
// d ends inside the current iter (e, s): with c = product / shape[d] (what the later blocks still
// need from it), the iter is split outer part first,
//     (e, s) -> (e/c, s*c)  closing block d,   (c, s)  carried on,
// which requires c | e. A size-1 dimension therefore gets a unit iter (e/c = 1) cut from the
// iter it falls in, so an axis that only a unit iter of that dimension carries stays in
// apply(..., shape=) results. Unit iters of the layout that no size-1 dimension needs are
// dropped. Example: S[(1,8):(1@TLane,1)] by (1,8) keeps (1, 1@TLane) as block 0.
#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

std::optional<Grouped> try_group(const TileLayout& l, std::span<const std::int64_t> shape) {
  for (const std::int64_t dim : shape)
    if (dim < 1) return std::nullopt;
  Grouped g;
  g.layout.replica = l.replica;
  g.layout.offset = l.offset;
  g.seps.push_back(0);
  std::size_t d = 0;
  std::int64_t prod = 1;  // extent product since the last boundary (this iter's remainder included)
  for (const Iter& it : l.shard) {
    std::int64_t e = it.extent;
    if (__builtin_mul_overflow(prod, e, &prod)) return std::nullopt;
    // Every dimension that ends inside this iter takes its outer part (a size-1 dimension takes a
    // unit iter, as TVM's Group does).
    while (d < shape.size() && prod % shape[d] == 0) {
      const std::int64_t c = prod / shape[d];  // what stays for the dimensions after d
      if (e % c != 0) return std::nullopt;
      Iter part = it;
      part.extent = e / c;
      part.stride = checked_mul(it.stride, c, "group stride");
      g.layout.shard.push_back(part);
      e = c;
      prod = c;
      ++d;
      g.seps.push_back(g.layout.shard.size());
    }
    if (e != 1) {
      if (d >= shape.size()) return std::nullopt;  // more elements than the shape holds
      Iter rest = it;
      rest.extent = e;
      g.layout.shard.push_back(rest);
    }
  }
  if (d != shape.size()) return std::nullopt;
  return g;
}

Grouped group(const TileLayout& l, std::span<const std::int64_t> shape) {
  if (auto g = try_group(l, shape)) return *std::move(g);
  std::string s;
  for (std::size_t d = 0; d < shape.size(); ++d) s += fmt::format("{}{}", d ? ", " : "", shape[d]);
  throw InputError("layout.well-formed",
                   fmt::format("layout can not be grouped by shape ({}): a block boundary falls inside an "
                               "iter in a non-divisible way, or the sizes differ",
                               s));
}

}  // namespace tirx
