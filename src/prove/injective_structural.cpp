// A sufficient condition for layout.injective, decided from the iters alone (engine
// "structural"): the common case of every real layout, proved without enumeration.
//
// Take every iter that moves a point (shard iters with stride != 0 — stride-0 shard iters are
// explicit broadcasts — and every replica iter with extent > 1). If each lies on a storage axis
// and, on each storage axis, the iters sorted by |stride| satisfy
//     |s_1| >= 1   and   |s_{k+1}| >= 1 + sum_{j<=k} (e_j - 1) * |s_j|,
// then the map from digits to cells is injective: for two distinct digit vectors, the
// largest-|stride| digit in which they differ moves its axis by at least |s_k|, more than all
// smaller digits together can cancel. The XOR swizzle of a ComposeLayout is a bijection on
// addresses (it XORs bits that it does not change into others; S >= B), so it preserves
// injectivity. When the condition fails nothing is concluded: enumeration decides.
#include <algorithm>
#include <cstdlib>

#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"

namespace tirx::prove {

bool injective_by_strides(const TileLayout& l, Scope scope) {
  const std::vector<Axis> cell = storage_axes(l, scope);
  std::vector<std::vector<Iter>> per_axis(kNumAxes);
  auto take = [&](const Iter& it) {
    if (std::find(cell.begin(), cell.end(), it.axis) == cell.end()) return false;
    per_axis[it.axis.index()].push_back(it);
    return true;
  };
  for (const Iter& it : l.shard)
    if (it.extent > 1 && it.stride != 0 && !take(it)) return false;
  for (const Iter& it : l.replica)
    if (it.extent > 1 && (it.stride == 0 || !take(it))) return false;
  for (auto& iters : per_axis) {
    std::sort(iters.begin(), iters.end(),
              [](const Iter& a, const Iter& b) { return std::llabs(a.stride) < std::llabs(b.stride); });
    std::int64_t reach = 0;  // sum of (e-1)|s| of the smaller iters
    for (const Iter& it : iters) {
      const std::int64_t s = std::llabs(it.stride);
      if (s <= reach) return false;
      reach = checked_add(reach, checked_mul(it.extent - 1, s, "reach"), "reach");
    }
  }
  return true;
}

}  // namespace tirx::prove
