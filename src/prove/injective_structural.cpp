// Decisions for layout.injective from the iters alone (engine "structural"), O(iters):
//
// 1. A contraction (contraction_iter): a shard iter of extent > 1 and stride 0 that is not a
//    declared broadcast. Its digit moves no coordinate at all, so the elements with digit 0 and
//    digit 1 (every other digit 0) have the same image on every axis — a certain collision, with
//    that pair as the witness. `S[(2,64):(0,1)]` (TileLang #2632's contracting shared layout),
//    `S[128:0]`, the register fragment `S[(32,8):(1@laneid,0)]`.
//
// 2. A sufficient condition for injectivity, the common case of every real layout. Take every
//    iter that moves a point (shard iters with stride != 0 — declared broadcast iters are left
//    out, they are a read-only view — and every replica iter with extent > 1). If each lies on a
//    storage axis and, on each storage axis, the iters sorted by |stride| satisfy
//        |s_1| >= 1   and   |s_{k+1}| >= 1 + sum_{j<=k} (e_j - 1) * |s_j|,
//    then the map from digits to cells is injective: for two distinct digit vectors, the
//    largest-|stride| digit in which they differ moves its axis by at least |s_k|, more than all
//    smaller digits together can cancel. The XOR swizzle of a ComposeLayout is a bijection on
//    addresses (it XORs bits that it does not change into others; S >= B), so it preserves
//    injectivity. When the condition fails nothing is concluded: another engine decides.
//    Reaches are summed in 128 bits: S[3:-4611686018427387904] has a reach of 2^63, which is
//    no reason to give up (it is injective).
#include <algorithm>
#include <cstdlib>

#include "checks_internal.hpp"

namespace tirx::prove {

std::optional<std::size_t> contraction_iter(const TileLayout& l) {
  for (std::size_t k = 0; k < l.shard.size(); ++k)
    if (l.shard[k].extent > 1 && l.shard[k].stride == 0 && !l.shard[k].broadcast) return k;
  return std::nullopt;
}

bool injective_by_strides(const TileLayout& l, Scope scope) {
  const std::vector<Axis> cell = storage_axes(l, scope);
  std::vector<std::vector<Iter>> per_axis(kNumAxes);
  auto take = [&](const Iter& it) {
    if (std::find(cell.begin(), cell.end(), it.axis) == cell.end()) return false;
    per_axis[it.axis.index()].push_back(it);
    return true;
  };
  for (const Iter& it : l.shard) {
    if (it.extent <= 1 || it.is_declared_broadcast()) continue;
    if (it.stride == 0 || !take(it)) return false;  // a contraction, or a digit off the cell
  }
  for (const Iter& it : l.replica)
    if (it.extent > 1 && (it.stride == 0 || !take(it))) return false;
  auto magnitude = [](std::int64_t s) { return s < 0 ? -static_cast<__int128>(s) : static_cast<__int128>(s); };
  for (auto& iters : per_axis) {
    std::sort(iters.begin(), iters.end(),
              [&](const Iter& a, const Iter& b) { return magnitude(a.stride) < magnitude(b.stride); });
    __int128 reach = 0;  // sum of (e-1)|s| of the smaller iters; < 2^127 for int64 inputs
    for (const Iter& it : iters) {
      const __int128 s = magnitude(it.stride);
      if (s <= reach) return false;
      reach += static_cast<__int128>(it.extent - 1) * s;
    }
  }
  return true;
}

}  // namespace tirx::prove
