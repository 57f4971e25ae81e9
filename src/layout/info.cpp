// The layout query facts in one value (info.hpp).
#include "tirx_verify/layout/info.hpp"

#include "tirx_verify/layout/error.hpp"

namespace tirx {

LayoutInfo layout_info(const Layout& l, const CanonicalizeOptions& opt) {
  LayoutInfo out;
  const TileLayout& t = l.tile();
  out.compose = l.is_compose();
  out.size = t.size();
  out.span = t.span();
  out.replicas = t.replica_count();
  for (Axis a : t.axes()) out.axes.push_back(AxisInfoOf{a, t.size(a), t.span(a)});
  try {
    out.well_formed = verify_well_formed(l);
    out.scope = get_scope(t);
    out.canonical = canonicalize(l, opt);
  } catch (const InputError& e) {
    out.well_formed = false;
    out.error_id = e.check_id();
    out.error = e.message();
  }
  return out;
}

}  // namespace tirx
