#include "tirx_verify/layout/axis.hpp"

namespace tirx {

namespace {
using S = ScopeKind;
constexpr std::array<AxisInfo, kNumAxes> kRegistry = {{
    {AxisId::bx, "bx", true, S::kThread, S::kCta},
    {AxisId::by, "by", true, S::kThread, S::kCta},
    {AxisId::bz, "bz", true, S::kThread, S::kCta},
    {AxisId::cbx, "cbx", true, S::kCluster, S::kCta},
    {AxisId::cby, "cby", true, S::kCluster, S::kCta},
    {AxisId::cbz, "cbz", true, S::kCluster, S::kCta},
    {AxisId::tx, "tx", true, S::kCta, S::kThread},
    {AxisId::warpid, "warpid", true, S::kCta, S::kWarp},
    {AxisId::laneid, "laneid", true, S::kWarp, S::kThread},
    {AxisId::wgid, "wgid", true, S::kCta, S::kWarpgroup},
    {AxisId::tid_in_wg, "tid_in_wg", true, S::kWarpgroup, S::kThread},
    {AxisId::wid_in_wg, "wid_in_wg", true, S::kWarpgroup, S::kWarp},
    {AxisId::m, "m", false, S::kNone, S::kNone},
    {AxisId::P, "P", false, S::kNone, S::kNone},
    {AxisId::F, "F", false, S::kNone, S::kNone},
    {AxisId::Bank, "Bank", false, S::kNone, S::kNone},
    {AxisId::TCol, "TCol", false, S::kNone, S::kNone},
    {AxisId::TLane, "TLane", false, S::kNone, S::kNone},
}};
}  // namespace

const std::array<AxisInfo, kNumAxes>& axis_registry() { return kRegistry; }

const AxisInfo& Axis::info() const { return kRegistry[static_cast<int>(id_)]; }

std::optional<Axis> Axis::from_name(std::string_view name) {
  for (const auto& a : kRegistry)
    if (a.name == name) return Axis(a.id);
  return std::nullopt;
}

std::string_view scope_name(ScopeKind s) {
  switch (s) {
    case ScopeKind::kCluster: return "cluster";
    case ScopeKind::kCta: return "cta";
    case ScopeKind::kWarpgroup: return "warpgroup";
    case ScopeKind::kWarp: return "warp";
    case ScopeKind::kThread: return "thread";
    default: return "none";
  }
}

}  // namespace tirx
