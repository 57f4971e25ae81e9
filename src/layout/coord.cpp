#include "tirx_verify/layout/coord.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"

namespace tirx {

void Coord::add(Axis a, std::int64_t v) {
  value[a.index()] = checked_add(value[a.index()], v, "coordinate");
  present |= 1u << a.index();
}

bool operator==(const Coord& a, const Coord& b) {
  if (a.present != b.present) return false;
  for (int i = 0; i < kNumAxes; ++i)
    if (((a.present >> i) & 1u) && a.value[i] != b.value[i]) return false;
  return true;
}

bool operator<(const Coord& a, const Coord& b) {
  if (a.present != b.present) return a.present < b.present;
  for (int i = 0; i < kNumAxes; ++i)
    if (((a.present >> i) & 1u) && a.value[i] != b.value[i]) return a.value[i] < b.value[i];
  return false;
}

std::string Coord::to_string() const {
  std::string out = "{";
  bool first = true;
  for (const auto& info : axis_registry()) {
    if (!has(info.id)) continue;
    out += fmt::format("{}{}: {}", first ? "" : ", ", info.name, value[static_cast<int>(info.id)]);
    first = false;
  }
  return out + "}";
}

}  // namespace tirx
