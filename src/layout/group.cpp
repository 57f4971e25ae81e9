// group(): split shard iters so the shard partitions into blocks matching a logical shape.
//
// Walk the shard from the outermost iter. Dimension d needs a block whose extent product is
// shape[d]. An iter (e, s) that fits (need % e == 0) is taken whole; one that is too large but
// divisible (e % need == 0) is split outer part first:
//     (e, s) -> (need, s * e/need)  into this block,   (e/need, s)  left for the next block.
// Unit iters are dropped (TVM drops unneeded unit iters; an axis used only by extent-1 iters can
// therefore vanish from apply(..., shape=) results, as in TVM).
#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

std::optional<Grouped> try_group(const TileLayout& l, std::span<const std::int64_t> shape) {
  Grouped g;
  g.layout.replica = l.replica;
  g.layout.offset = l.offset;
  g.seps.push_back(0);
  std::size_t i = 0;
  bool have_pending = false;
  Iter pending;
  auto next_iter = [&](Iter& out) -> bool {
    if (have_pending) {
      out = pending;
      have_pending = false;
      return true;
    }
    if (i >= l.shard.size()) return false;
    out = l.shard[i++];
    return true;
  };
  for (const std::int64_t dim : shape) {
    if (dim < 1) return std::nullopt;
    std::int64_t need = dim;
    while (need > 1) {
      Iter it;
      if (!next_iter(it)) return std::nullopt;
      if (it.extent == 1) continue;
      if (need % it.extent == 0) {
        g.layout.shard.push_back(it);
        need /= it.extent;
      } else if (it.extent % need == 0) {
        const std::int64_t inner = it.extent / need;
        g.layout.shard.push_back(Iter{need, checked_mul(it.stride, inner, "group stride"), it.axis});
        pending = Iter{inner, it.stride, it.axis};
        have_pending = true;
        need = 1;
      } else {
        return std::nullopt;
      }
    }
    g.seps.push_back(g.layout.shard.size());
  }
  // Whatever is left must be unit iters.
  Iter it;
  while (next_iter(it))
    if (it.extent != 1) return std::nullopt;
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
