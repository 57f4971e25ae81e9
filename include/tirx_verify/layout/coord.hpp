// tirx_verify/layout/coord.hpp — a physical coordinate: one int64 per named axis.
//
// apply() returns a Coord. Only axes a layout actually mentions are "present" (TVM returns a
// map keyed by the axes that occur); absent axes read as 0. Fixed-size storage keeps the
// enumeration hot path free of allocation.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tirx_verify/layout/axis.hpp"

namespace tirx {

struct Coord {
  std::array<std::int64_t, kNumAxes> value{};
  std::uint32_t present = 0;  // bit i set: axis with index i appears in the result

  std::int64_t get(Axis a) const { return value[a.index()]; }
  bool has(Axis a) const { return (present >> a.index()) & 1u; }
  void set(Axis a, std::int64_t v) { value[a.index()] = v; present |= 1u << a.index(); }
  void add(Axis a, std::int64_t v);  // checked add; marks the axis present

  friend bool operator==(const Coord& a, const Coord& b);
  friend bool operator<(const Coord& a, const Coord& b);  // lexicographic on (present, values)

  // "{laneid: 5, warpid: 5, m: 1}" in registry order of the present axes.
  std::string to_string() const;
};

}  // namespace tirx
