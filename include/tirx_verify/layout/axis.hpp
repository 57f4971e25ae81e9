// tirx_verify/layout/axis.hpp — the registry of named axes a layout can map onto.
//
// A layout maps a logical element to a coordinate on *named* axes, never to an anonymous
// dimension. The 18 axes below are exactly those TVM registers (src/tirx/ir/layout/
// axis_registry.cc); an unknown name is a `layout.well-formed` error here (TVM silently
// registers it and fails later).
//
//   name       kind    scope -> subscope   meaning
//   bx by bz   thread  thread -> cta       CTA index in the grid (TVM's placeholder scope)
//   cbx..cbz   thread  cluster -> cta      CTA index inside a cluster
//   tx         thread  cta -> thread       thread index in the CTA
//   warpid     thread  cta -> warp         warp index in the CTA
//   laneid     thread  warp -> thread      lane 0..31 in the warp
//   wgid       thread  cta -> warpgroup    warpgroup index in the CTA
//   tid_in_wg  thread  warpgroup -> thread thread 0..127 in its warpgroup
//   wid_in_wg  thread  warpgroup -> warp   warp 0..3 in its warpgroup
//   m          memory  -                   generic linear memory (the default axis), elements
//   P F Bank   memory  -                   Trainium partition / free dim / PSUM bank
//   TCol TLane memory  -                   Blackwell tensor-memory column (elements) and lane
//
// Scopes order from wide to narrow: cluster(2) > cta(3) > warpgroup(4) > warp(5) > thread(6).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tirx {

enum class ScopeKind : std::uint8_t { kNone = 0, kCluster = 2, kCta = 3, kWarpgroup = 4, kWarp = 5, kThread = 6 };

std::string_view scope_name(ScopeKind s);

enum class AxisId : std::uint8_t {
  bx, by, bz, cbx, cby, cbz, tx, warpid, laneid, wgid, tid_in_wg, wid_in_wg,
  m, P, F, Bank, TCol, TLane,
};
inline constexpr int kNumAxes = 18;

struct AxisInfo {
  AxisId id;
  std::string_view name;
  bool thread;          // true: thread axis; false: memory axis
  ScopeKind scope;      // outer scope (thread axes only)
  ScopeKind subscope;   // inner scope (thread axes only)
};

// A small value type naming one registered axis. Default-constructed = `m`.
class Axis {
 public:
  constexpr Axis() : id_(AxisId::m) {}
  constexpr Axis(AxisId id) : id_(id) {}  // NOLINT: implicit by design, AxisId is the axis

  // Looks an axis up by its exact name ("laneid", "TCol", ...); nullopt if not registered.
  static std::optional<Axis> from_name(std::string_view name);

  constexpr AxisId id() const { return id_; }
  constexpr int index() const { return static_cast<int>(id_); }
  const AxisInfo& info() const;
  std::string_view name() const { return info().name; }
  bool is_thread() const { return info().thread; }
  bool is_memory() const { return !info().thread; }

  friend constexpr bool operator==(Axis a, Axis b) { return a.id_ == b.id_; }
  // Orders by name in plain byte order, as TVM's printer sorts offsets (TCol < TLane < laneid < m).
  friend bool operator<(Axis a, Axis b) { return a.name() < b.name(); }

 private:
  AxisId id_;
};

// All registered axes in registry order.
const std::array<AxisInfo, kNumAxes>& axis_registry();

}  // namespace tirx
