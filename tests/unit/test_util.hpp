// Small builders for tests that construct layouts without the notation parser.
#pragma once

#include <initializer_list>
#include <string_view>
#include <utility>

#include "tirx_verify/layout/layout.hpp"

namespace tirx::test {

// I(8, 4, "laneid") -> Iter{8, 4, laneid}; I(8, 4) -> on m.
inline Iter I(std::int64_t e, std::int64_t s, std::string_view axis = "m") {
  return Iter{e, s, *Axis::from_name(axis)};
}

// B(4) -> Iter{4, 0, m} marked a declared broadcast (as broadcast() and sf_reuse make it).
inline Iter B(std::int64_t e, std::string_view axis = "m") { return Iter{e, 0, *Axis::from_name(axis), true}; }

inline TileLayout TL(std::initializer_list<Iter> shard, std::initializer_list<Iter> replica = {},
                     std::initializer_list<std::pair<std::string_view, std::int64_t>> offset = {}) {
  TileLayout l{std::vector<Iter>(shard), std::vector<Iter>(replica)};
  for (auto [a, v] : offset) l.offset.add(*Axis::from_name(a), v);
  return l;
}

inline ComposeLayout CL(int pe, int sl, int al, TileLayout t, bool inner = true) {
  return ComposeLayout(SwizzleSpec{pe, sl, al, inner}, std::move(t));
}

inline std::int64_t at(const Coord& c, std::string_view axis) { return c.get(*Axis::from_name(axis)); }

}  // namespace tirx::test
