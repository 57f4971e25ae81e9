// The property registry (properties.hpp): one entry per property, in report order.
#include "props_internal.hpp"

namespace tirx::props {

const std::vector<Property>& properties() {
  static const std::vector<Property> all = {
      notation_roundtrip_property(), canonicalize_replicas_property(), apply_forms_property(),
      tcgen05_atom_property(),       swizzle_bijection_property(),     tma_compose_property(),
      prove_injective_property(),    prove_bounds_property(),          prove_equivalent_property(),
      smem_wavefronts_property(),    smem_bank_engines_property(),
  };
  return all;
}

const Property* find_property(std::string_view name) {
  for (const auto& p : properties())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace tirx::props
