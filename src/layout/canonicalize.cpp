// canonicalize — TVM's normal form of a TileLayout (src/tirx/ir/layout/tile_canonicalize.cc).
//
// Five steps, in TVM's order (spec section (e)):
//
//   input  S[(8,8,1,8,4,2):(512,64,160,8,2,1)] + 0@laneid
//   (1) drop extent-1 shard iters      S[(8,8,8,4,2):(512,64,8,2,1)] + 0@laneid
//   (2) drop zero offsets              S[(8,8,8,4,2):(512,64,8,2,1)]
//   (3) scope check (+ CUDA fusion)    unchanged (no thread axis)
//   (4) fuse contiguous iters          S[4096:1]   (8*64 == 512, 8*8 == 64, ...)
//   (5) sort replica iters             (no replica)
//
// The canonical form is not unique in general (shard iters are never reordered), so only
// canonical forms built the same way compare equal.
#include <algorithm>
#include <tuple>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

namespace {

// e * s == target without overflowing (an overflowing product equals no int64).
bool product_equals(std::int64_t e, std::int64_t s, std::int64_t target) {
  std::int64_t p;
  if (__builtin_mul_overflow(e, s, &p)) return false;
  return p == target;
}

std::vector<Iter> fuse_contiguous(const std::vector<Iter>& shard) {
  std::vector<Iter> out;
  out.reserve(shard.size());
  for (std::size_t cur = 0; cur < shard.size();) {
    std::int64_t extent = shard[cur].extent;
    bool declared = shard[cur].broadcast;
    std::size_t next = cur + 1;
    while (next < shard.size() && shard[next].axis == shard[cur].axis &&
           product_equals(shard[next].extent, shard[next].stride, shard[next - 1].stride)) {
      extent = checked_mul(extent, shard[next].extent, "fused extent");
      declared = declared && shard[next].broadcast;
      ++next;
    }
    // Stride-0 iters only fuse with stride-0 iters; the run stays a declared broadcast when
    // every part of it was one.
    out.push_back(Iter{extent, shard[next - 1].stride, shard[cur].axis, declared});
    cur = next;
  }
  return out;
}

}  // namespace

TileLayout canonicalize(const TileLayout& l, const CanonicalizeOptions& opt) {
  l.validate();
  TileLayout r;
  // (1) unit shard iters; an all-unit shard keeps one (1, 1, first axis).
  for (const Iter& it : l.shard)
    if (it.extent != 1) r.shard.push_back(it);
  if (r.shard.empty() && !l.shard.empty()) r.shard.push_back(Iter{1, 1, l.shard.front().axis});
  r.replica = l.replica;
  // (2) zero offsets.
  for (const auto& e : l.offset.entries())
    if (e.value != 0) r.offset.set(e.axis, e.value);
  // (3) the scope is computed even without a target: a bad chain throws here, as in TVM.
  if (auto scope = get_scope(r); scope && opt.cuda_target) r = fuse_thread_axes(r, *scope);
  // (4) contiguous same-axis runs.
  r.shard = fuse_contiguous(r.shard);
  // (5) replica order: any fixed total order will do (TVM uses the structural hash).
  std::stable_sort(r.replica.begin(), r.replica.end(), [](const Iter& a, const Iter& b) {
    return std::make_tuple(a.axis.index(), a.stride, a.extent) <
           std::make_tuple(b.axis.index(), b.stride, b.extent);
  });
  return r;
}

Layout canonicalize(const Layout& l, const CanonicalizeOptions& opt) {
  if (!l.is_compose()) return Layout(canonicalize(l.tile(), opt));
  const ComposeLayout& c = l.as_compose();
  c.swizzle.validate();
  return Layout(ComposeLayout(c.swizzle, canonicalize(c.tile, opt)));
}

}  // namespace tirx
