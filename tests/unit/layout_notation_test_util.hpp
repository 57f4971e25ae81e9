// Helpers shared by the layout_notation_*_test.cpp files.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/notation.hpp"

namespace tirx::test {

inline OffsetMap offsets(std::initializer_list<std::pair<AxisId, std::int64_t>> entries) {
  OffsetMap m;
  for (auto [a, v] : entries) m.add(a, v);
  return m;
}

inline TileLayout tl(std::vector<Iter> shard, std::vector<Iter> replica = {},
                     std::initializer_list<std::pair<AxisId, std::int64_t>> off = {}) {
  return TileLayout(std::move(shard), std::move(replica), offsets(off));
}

inline ComposeLayout compose(int m, int b, int s, TileLayout t, bool inner = true) {
  return ComposeLayout(SwizzleSpec{m, b, s, inner}, std::move(t));
}

// The InputError parse_layout throws for `text` (fails the test if it parses).
inline InputError parse_error(std::string_view text, const Env& env = {}) {
  try {
    Layout l = parse_layout(text, env);
    ADD_FAILURE() << "expected an error for: " << text << "\n  got: " << print_layout(l);
  } catch (const InputError& e) {
    EXPECT_EQ(e.text(), std::string(text)) << "error text must be the input";
    return e;
  }
  return InputError("none", "none");
}

}  // namespace tirx::test
