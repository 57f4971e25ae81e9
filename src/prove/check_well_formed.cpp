// layout.well-formed — the layout is a valid description of this buffer.
//
// Structural validity (extents >= 1, no int64 overflow, legal swizzle parameters) is enforced
// when a layout is built, so a layout that reaches a check already has it. What this check adds
// is agreement with the buffer: the shape's element count equals the layout size (TVM silently
// flattens a mismatching shape), and the axes fit the storage scope (a TMEM buffer maps onto
// TLane/TCol; shared and global buffers onto memory axes; TMEM axes never outside TMEM); and
// what TVM's verify_well_formed() checks: the thread axes form one scope chain (get_scope()
// raises on a conflicting, disconnected or cyclic chain; spec tirx_semantics (b)), e.g.
// S[1:1@cbx] + 1@laneid (thread -> warp and cta -> cluster, nothing from warp to cta).
#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx::prove {

CheckResult check_well_formed(const CheckInput& in) {
  CheckResult res;
  res.id = "layout.well-formed";
  res.engine = "structural";
  in.layout.validate();
  const TileLayout& t = in.layout.tile();
  auto fail = [&](std::string msg, nlohmann::json w) {
    res.status = Status::kFail;
    res.message = std::move(msg);
    res.witness = std::move(w);
    return res;
  };
  if (in.shape) {
    std::int64_t prod = 1;
    for (std::int64_t d : *in.shape) {
      if (d < 1) return fail(fmt::format("shape has a dimension of {} (must be >= 1)", d), {{"shape", *in.shape}});
      prod = checked_mul(prod, d, "shape product");
    }
    if (prod != t.size())
      return fail(fmt::format("shape {} has {} elements but the layout has {}", nlohmann::json(*in.shape).dump(),
                              prod, t.size()),
                  {{"shape_elements", prod}, {"layout_size", t.size()}});
  }
  const bool tmem_axes = t.uses_axis(AxisId::TLane) || t.uses_axis(AxisId::TCol);
  for (const Axis a : t.axes()) {
    bool ok = true;
    switch (in.scope) {
      case Scope::kTmem: ok = a == Axis(AxisId::TLane) || a == Axis(AxisId::TCol); break;
      case Scope::kShared:
      case Scope::kGlobal: ok = a.is_memory() && a != Axis(AxisId::TLane) && a != Axis(AxisId::TCol); break;
      case Scope::kLocal: ok = a != Axis(AxisId::TLane) && a != Axis(AxisId::TCol); break;
      case Scope::kUnknown: break;
    }
    if (!ok)
      return fail(fmt::format("axis {} does not belong in a {} buffer", a.name(), scope_name(in.scope)),
                  {{"axis", std::string(a.name())}, {"scope", std::string(scope_name(in.scope))}});
  }
  if (in.scope == Scope::kTmem && !tmem_axes)
    return fail("a tmem buffer's layout must map onto TLane/TCol", {{"scope", "tmem"}});
  if (in.layout.is_compose() && in.scope == Scope::kTmem)
    return fail("a swizzled (ComposeLayout) layout cannot describe TMEM", {{"scope", "tmem"}});
  try {
    (void)get_scope(t);
  } catch (const InputError& e) {
    nlohmann::json axes = nlohmann::json::array();
    for (const Axis a : t.axes())
      if (a.is_thread()) axes.push_back(std::string(a.name()));
    return fail(e.message(), {{"thread_axes", axes}});
  }
  res.status = Status::kPass;
  res.message = fmt::format("{} elements{}", t.size(),
                            in.shape ? fmt::format(" match shape {}", nlohmann::json(*in.shape).dump()) : "");
  return res;
}

}  // namespace tirx::prove
