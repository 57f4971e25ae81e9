// Thread-scope analysis (TVM TileLayout.get_scope / verify_well_formed) and the thread-axis
// fusion TVM's canonicalize applies under a CUDA target.
//
// Each thread axis names an edge subscope -> scope of the execution hierarchy
// (laneid: thread -> warp, warpid: warp -> cta, ...; axis.hpp has the table). A layout's
// thread axes must form one chain from the narrowest subscope outward:
//
//   axes in the layout           edges                         get_scope
//   laneid                       thread->warp                  (thread, warp)
//   laneid, warpid               thread->warp, warp->cta       (thread, cta)
//   laneid, wgid                 thread->warp, warpgroup->cta  throws: disconnected
//   laneid, tid_in_wg            thread->warp, thread->wg      throws: conflicting
#include <array>
#include <optional>

#include <fmt/format.h>

#include "tirx_verify/layout/arch.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

namespace {

constexpr int kScopeSlots = 7;  // ScopeKind values 0..6

int slot(ScopeKind s) { return static_cast<int>(s); }

// Narrower scopes have larger ScopeKind values (cluster 2 ... thread 6).
bool narrower(ScopeKind a, ScopeKind b) { return slot(a) > slot(b); }

}  // namespace

std::optional<ScopePair> get_scope(const TileLayout& l) {
  bool shard_has_thread = false;
  for (const Iter& it : l.shard) shard_has_thread = shard_has_thread || it.axis.is_thread();
  if (!shard_has_thread) return std::nullopt;

  std::array<std::optional<ScopeKind>, kScopeSlots> outer_of{};
  std::optional<ScopeKind> innermost;
  int edges = 0;
  auto visit = [&](Axis a) {
    if (!a.is_thread()) return;
    const ScopeKind sub = a.info().subscope;
    const ScopeKind sc = a.info().scope;
    if (!innermost || narrower(sub, *innermost)) innermost = sub;
    auto& edge = outer_of[slot(sub)];
    if (!edge) {
      edge = sc;
      ++edges;
    } else if (*edge != sc) {
      throw InputError("layout.well-formed",
                       fmt::format("get_scope: conflicting scopes for {}: axis {} says {} -> {}, "
                                   "another thread axis says {} -> {}",
                                   scope_name(sub), a.name(), scope_name(sub), scope_name(sc),
                                   scope_name(sub), scope_name(*edge)),
                       {}, std::nullopt,
                       "use thread axes of one hierarchy, e.g. laneid+warpid or tid_in_wg+wgid");
    }
  };
  for (const Iter& it : l.shard) visit(it.axis);
  for (const Iter& it : l.replica) visit(it.axis);
  for (const auto& e : l.offset.entries()) visit(e.axis);

  ScopeKind cur = *innermost;
  int steps = 0;
  while (outer_of[slot(cur)]) {
    if (++steps > edges) {
      // bx/by/bz carry the placeholder outer scope "thread"; with a cta->thread axis (tx)
      // the chain cta -> thread -> cta never ends. TVM loops forever here.
      throw InputError("layout.well-formed",
                       "get_scope: cyclic scope chain (a grid axis bx/by/bz mixed with a "
                       "CTA-level thread axis)");
    }
    cur = *outer_of[slot(cur)];
  }
  if (steps != edges) {
    throw InputError("layout.well-formed",
                     fmt::format("get_scope: disconnected scope chain: the walk from {} outward "
                                 "reaches {} after {} of {} scope edges",
                                 scope_name(*innermost), scope_name(cur), steps, edges),
                     {}, std::nullopt,
                     "every thread axis must continue the chain of the narrower ones "
                     "(e.g. laneid with warpid or wid_in_wg, not with wgid)");
  }
  return ScopePair{*innermost, cur};
}

bool verify_well_formed(const Layout& l) {
  l.validate();
  if (const SwizzleSpec* s = l.swizzle()) s->validate();
  (void)get_scope(l.tile());
  return true;
}

namespace {

using SK = ScopeKind;

// The CUDA fusers of TVM's axis registry (src/tirx/ir/layout/axis_registry.cc), as a table:
// (axis, layout scope pair) -> (new axis, stride factor). tx, bx.., cbx.. have none.
struct FuseRule {
  AxisId from;
  ScopeKind inner, outer;
  AxisId to;
  std::int64_t factor;
};

// One deliberate difference: TVM's wgid fuser for (warp, cta) produces an iter on wgid
// (stride x4) instead of warpid, which leaves a disconnected scope chain; we produce warpid,
// as the fuser's own comment intends (docs/semantics-differences.md).
constexpr FuseRule kFuseRules[] = {
    {AxisId::warpid, SK::kThread, SK::kCta, AxisId::tx, arch::kWarpSize},
    {AxisId::laneid, SK::kThread, SK::kWarpgroup, AxisId::tid_in_wg, 1},
    {AxisId::laneid, SK::kThread, SK::kCta, AxisId::tx, 1},
    {AxisId::wgid, SK::kThread, SK::kCta, AxisId::tx, arch::kThreadsPerWarpgroup},
    {AxisId::wgid, SK::kWarp, SK::kCta, AxisId::warpid, arch::kWarpsPerWarpgroup},
    {AxisId::tid_in_wg, SK::kThread, SK::kCta, AxisId::tx, 1},
    {AxisId::wid_in_wg, SK::kThread, SK::kWarpgroup, AxisId::tid_in_wg, arch::kWarpSize},
    {AxisId::wid_in_wg, SK::kThread, SK::kCta, AxisId::tx, arch::kWarpSize},
    {AxisId::wid_in_wg, SK::kWarp, SK::kCta, AxisId::warpid, 1},
};

const FuseRule* find_rule(Axis a, ScopePair scope) {
  for (const auto& r : kFuseRules)
    if (r.from == a.id() && r.inner == scope.inner && r.outer == scope.outer) return &r;
  return nullptr;
}

Iter fuse_iter(const Iter& it, ScopePair scope) {
  const FuseRule* r = find_rule(it.axis, scope);
  if (!r) return it;
  return Iter{it.extent, checked_mul(it.stride, r->factor, "fused thread stride"), Axis(r->to)};
}

}  // namespace

TileLayout fuse_thread_axes(const TileLayout& l, ScopePair scope) {
  TileLayout out;
  out.shard.reserve(l.shard.size());
  for (const Iter& it : l.shard) out.shard.push_back(fuse_iter(it, scope));
  out.replica.reserve(l.replica.size());
  for (const Iter& it : l.replica) out.replica.push_back(fuse_iter(it, scope));
  for (const auto& e : l.offset.entries()) {
    const Iter fused = fuse_iter(Iter{1, e.value, e.axis}, scope);
    out.offset.add(fused.axis, fused.stride);
  }
  return out;
}

}  // namespace tirx
