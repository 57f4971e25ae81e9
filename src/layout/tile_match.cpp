// is_tile_inner / is_tile_outer — recognise a tiled layout (TVM IsTileInner / IsTileOuter in
// tile_tile_ops.cc). Both group the tiled layout by the factored shape and compare blocks:
//
//   tiled S[(8,2,32):(64,1,2)] over (16,32), inner S[(2,4):(1,2)] over (2,4):
//     factored shape (8,2 | 8,4); per tiled dimension the block is [outer iters..., inner iters...]
//     dim 0: block (8,64),(2,1)   inner (2,1) matches the tail; outer (8,64) / inner span 8 = (8,8)
//     dim 1: block (8,8),(4,2)    inner (4,2) matches;          outer (8,8)  / 8            = (8,1)
//     -> outer S[(8,8):(8,1)]
//
// Under a CUDA target, when the tiled layout lives at a wider scope than the candidate, its
// thread axes are split first (tx -> warpid*32 + laneid, ...) with TVM's splitters.
#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/arch.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "layout/ops_util.hpp"

namespace tirx {

namespace {

// Scope a is wider (outer) than b.
bool wider(ScopeKind a, ScopeKind b) { return static_cast<int>(a) < static_cast<int>(b); }

// TVM SplitterGen: one iter of a fused axis -> (outer axis, inner axis) with `inner_size`
// inner positions per outer step. Returns {} when the iter straddles the boundary unevenly
// (TVM then silently drops it).
std::vector<Iter> split_gen(const Iter& it, Axis outer, Axis inner, std::int64_t inner_size) {
  std::int64_t span;
  if (!__builtin_mul_overflow(it.extent, it.stride, &span) && span < inner_size)
    return {Iter{it.extent, it.stride, inner}};
  if (it.stride > 0 && inner_size % it.stride == 0 && span % inner_size == 0) {
    const std::int64_t d = inner_size / it.stride;
    return {Iter{it.extent / d, 1, outer}, Iter{d, it.stride, inner}};
  }
  if (it.stride % inner_size == 0) return {Iter{it.extent, it.stride / inner_size, outer}};
  return {};
}

struct SplitRule {
  AxisId from;
  ScopeKind to_scope;
  AxisId outer, inner;
  std::int64_t inner_size;
};

// TVM's CUDA splitters (axis_registry.cc).
constexpr SplitRule kSplitRules[] = {
    {AxisId::tx, ScopeKind::kWarp, AxisId::warpid, AxisId::laneid, arch::kWarpSize},
    {AxisId::tx, ScopeKind::kWarpgroup, AxisId::wgid, AxisId::tid_in_wg, arch::kThreadsPerWarpgroup},
    {AxisId::warpid, ScopeKind::kWarp, AxisId::wgid, AxisId::wid_in_wg, arch::kWarpsPerWarpgroup},
    {AxisId::tid_in_wg, ScopeKind::kWarp, AxisId::wid_in_wg, AxisId::laneid, arch::kWarpSize},
};

bool has_splitter(Axis a) {
  switch (a.id()) {
    case AxisId::tx: case AxisId::warpid: case AxisId::laneid: case AxisId::wgid:
    case AxisId::tid_in_wg: case AxisId::wid_in_wg: return true;
    default: return false;
  }
}

const SplitRule& rule_for(Axis a, ScopeKind scope) {
  for (const auto& r : kSplitRules)
    if (r.from == a.id() && r.to_scope == scope) return r;
  throw InputError("layout.well-formed",
                   fmt::format("tile match: thread axis {} cannot be split at scope {}", a.name(), scope_name(scope)));
}

std::vector<Iter> split_iter(const Iter& it, ScopeKind scope) {
  if (!has_splitter(it.axis)) return {it};
  const SplitRule& r = rule_for(it.axis, scope);
  return split_gen(it, r.outer, r.inner, r.inner_size);
}

TileLayout split_axes_by_scope(const TileLayout& l, ScopeKind scope) {
  TileLayout out;
  for (const Iter& it : l.shard)
    for (const Iter& s : split_iter(it, scope)) out.shard.push_back(s);
  for (const Iter& it : l.replica)
    for (const Iter& s : split_iter(it, scope)) out.replica.push_back(s);
  for (const auto& e : l.offset.entries()) {
    if (!has_splitter(e.axis)) {
      out.offset.add(e.axis, e.value);
      continue;
    }
    // tx = outer * inner_size + inner: an offset splits by division (TVM splits it as an
    // extent-1 iter, which mis-assigns an offset equal to inner_size; see semantics-differences).
    const SplitRule& r = rule_for(e.axis, scope);
    out.offset.add(r.outer, floor_div(e.value, r.inner_size));
    out.offset.add(r.inner, floor_mod(e.value, r.inner_size));
  }
  return out;
}

// TVM TileShape: per dimension (outer, inner) extents, outer first.
std::vector<std::int64_t> factor_shape(std::span<const std::int64_t> tiled, std::span<const std::int64_t> part,
                                       bool part_is_inner, const char* op) {
  if (tiled.size() != part.size())
    throw InputError("layout.well-formed", fmt::format("{}: tiled shape has {} dimensions but the other shape has {}",
                                                       op, tiled.size(), part.size()));
  detail::checked_shape_size(tiled, op, "tiled shape");
  detail::checked_shape_size(part, op, "shape");
  std::vector<std::int64_t> f;
  for (std::size_t d = 0; d < tiled.size(); ++d) {
    if (tiled[d] % part[d] != 0)
      throw InputError("layout.well-formed",
                       fmt::format("{}: tiled extent {} of dimension {} is not divisible by {}", op, tiled[d], d, part[d]));
    const std::int64_t other = tiled[d] / part[d];
    f.push_back(part_is_inner ? other : part[d]);
    f.push_back(part_is_inner ? part[d] : other);
  }
  return f;
}

std::vector<std::size_t> even_seps(const std::vector<std::size_t>& seps) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < seps.size(); i += 2) out.push_back(seps[i]);
  return out;
}

OffsetMap subtract(const OffsetMap& a, const OffsetMap& b) {
  // Only axes of `a` appear in the result (as TVM).
  OffsetMap out;
  for (const auto& e : a.entries()) out.set(e.axis, checked_sub(e.value, b.get(e.axis), "tile match offset"));
  return out;
}

std::optional<TileLayout> tile_inner_tiles(const TileLayout& inner_in, const TileLayout& tiled_in,
                                           std::span<const std::int64_t> tiled_shape,
                                           std::span<const std::int64_t> inner_shape, const CanonicalizeOptions& opt) {
  TileLayout tiled = canonicalize(tiled_in, opt);
  const TileLayout inner = canonicalize(inner_in, opt);
  const auto ts = get_scope(tiled), is = get_scope(inner);
  if (ts && is) {
    if (ts->inner != is->inner || wider(is->outer, ts->outer)) return std::nullopt;
    if (opt.cuda_target && wider(ts->outer, is->outer)) tiled = split_axes_by_scope(tiled, is->outer);
  }
  auto rescale = [&](const Iter& it) -> std::optional<Iter> {
    bool inner_uses = std::any_of(inner.shard.begin(), inner.shard.end(), [&](const Iter& x) { return x.axis == it.axis; });
    if (!inner_uses || it.extent == 1) return it;
    const std::int64_t span = inner.span(it.axis);
    if (span == 0 || it.stride % span != 0) return std::nullopt;
    return Iter{it.extent, it.stride / span, it.axis};
  };
  const auto factored = factor_shape(tiled_shape, inner_shape, true, "is_tile_inner");
  const Grouped gt = group(tiled, factored);
  const Grouped gi = group(inner, inner_shape);
  const auto tseps = even_seps(gt.seps);
  TileLayout outer;
  for (std::size_t d = 0; d < tiled_shape.size(); ++d) {
    const std::size_t icount = gi.seps[d + 1] - gi.seps[d];
    const std::size_t tcount = tseps[d + 1] - tseps[d];
    if (icount > tcount) return std::nullopt;
    for (std::size_t j = 0; j < icount; ++j) {
      const Iter& a = gi.layout.shard[gi.seps[d] + j];
      const Iter& b = gt.layout.shard[tseps[d + 1] - icount + j];
      if (a.extent != b.extent || (a.extent != 1 && (a.stride != b.stride || a.axis != b.axis))) return std::nullopt;
    }
    for (std::size_t j = 0; j < tcount - icount; ++j) {
      auto it = rescale(gt.layout.shard[tseps[d] + j]);
      if (!it) return std::nullopt;
      outer.shard.push_back(*it);
    }
  }
  for (const Iter& r : tiled.replica) {
    if (std::find(inner.replica.begin(), inner.replica.end(), r) != inner.replica.end()) continue;
    auto it = rescale(r);
    if (!it) return std::nullopt;
    outer.replica.push_back(*it);
  }
  outer.offset = subtract(tiled.offset, inner.offset);
  return outer;
}

std::optional<TileLayout> tile_outer_tiles(const TileLayout& outer_in, const TileLayout& tiled_in,
                                           std::span<const std::int64_t> tiled_shape,
                                           std::span<const std::int64_t> outer_shape, const CanonicalizeOptions& opt) {
  TileLayout tiled = canonicalize(tiled_in, opt);
  const TileLayout outer = canonicalize(outer_in, opt);
  const auto ts = get_scope(tiled), os = get_scope(outer);
  if (ts && os) {
    if (ts->outer != os->outer || wider(ts->inner, os->inner)) return std::nullopt;
    if (opt.cuda_target && wider(os->inner, ts->inner)) tiled = split_axes_by_scope(tiled, os->inner);
  }
  const auto factored = factor_shape(tiled_shape, outer_shape, false, "is_tile_outer");
  const Grouped gt = group(tiled, factored);
  const Grouped go = group(outer, outer_shape);
  const auto tseps = even_seps(gt.seps);
  TileLayout inner;
  for (std::size_t d = 0; d < tiled_shape.size(); ++d) {
    const std::size_t ocount = go.seps[d + 1] - go.seps[d];
    const std::size_t tcount = tseps[d + 1] - tseps[d];
    if (ocount > tcount) return std::nullopt;
    for (std::size_t j = 0; j < ocount; ++j) {
      const Iter& a = go.layout.shard[go.seps[d] + j];
      const Iter& b = gt.layout.shard[tseps[d] + j];
      if (a.extent != b.extent || (a.extent != 1 && a.axis != b.axis)) return std::nullopt;
    }
    for (std::size_t j = ocount; j < tcount; ++j) inner.shard.push_back(gt.layout.shard[tseps[d] + j]);
  }
  for (const Iter& r : tiled.replica)
    if (std::find(outer.replica.begin(), outer.replica.end(), r) == outer.replica.end()) inner.replica.push_back(r);
  inner.offset = subtract(tiled.offset, outer.offset);
  // The block comparison ignores strides: confirm by tiling back.
  std::vector<std::int64_t> inner_shape(tiled_shape.size());
  for (std::size_t d = 0; d < tiled_shape.size(); ++d) inner_shape[d] = tiled_shape[d] / outer_shape[d];
  const Layout back = tile(Layout(inner), outer, outer_shape, inner_shape, opt);
  if (!(back == Layout(canonicalize(tiled, opt)))) return std::nullopt;
  return inner;
}

}  // namespace

std::optional<TileLayout> is_tile_inner(const Layout& inner, const Layout& tiled,
                                        std::span<const std::int64_t> tiled_shape,
                                        std::span<const std::int64_t> inner_shape, const CanonicalizeOptions& opt) {
  if (inner.is_compose() != tiled.is_compose()) return std::nullopt;
  if (!inner.is_compose()) return tile_inner_tiles(inner.tile(), tiled.tile(), tiled_shape, inner_shape, opt);
  if (!(*inner.swizzle() == *tiled.swizzle())) return std::nullopt;
  return tile_inner_tiles(detail::compose_base(inner.as_compose(), inner_shape, "is_tile_inner"),
                          detail::compose_base(tiled.as_compose(), tiled_shape, "is_tile_inner"), tiled_shape,
                          inner_shape, opt);
}

std::optional<Layout> is_tile_outer(const Layout& outer, const Layout& tiled,
                                    std::span<const std::int64_t> tiled_shape,
                                    std::span<const std::int64_t> outer_shape, const CanonicalizeOptions& opt) {
  if (outer.is_compose()) return std::nullopt;  // as TVM: a swizzled outer is never recognised
  if (!tiled.is_compose()) {
    auto in = tile_outer_tiles(outer.tile(), tiled.tile(), tiled_shape, outer_shape, opt);
    if (!in) return std::nullopt;
    return Layout(std::move(*in));
  }
  const ComposeLayout& c = tiled.as_compose();
  auto in = tile_outer_tiles(outer.tile(), detail::compose_base(c, tiled_shape, "is_tile_outer"), tiled_shape,
                             outer_shape, opt);
  if (!in) return std::nullopt;
  return Layout(ComposeLayout(c.swizzle, std::move(*in)));
}

}  // namespace tirx
