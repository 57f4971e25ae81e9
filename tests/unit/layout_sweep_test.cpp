// Sweep (layout/sweep.hpp) at the edges of int64: the odometer visits exactly the points apply()
// names and never computes a value outside them (found by fuzz_cli under UBSan: stepping past
// the last digit of S[2:-2^63] computed -2^63 + -2^63).
#include <gtest/gtest.h>

#include <vector>

#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/sweep.hpp"

namespace tirx {
namespace {

std::vector<std::int64_t> m_values(const char* text, bool replicas) {
  const Layout l = parse_layout(text);
  const Sweep sw(l.tile(), replicas);
  const int slot = sw.index_of(AxisId::m);
  std::vector<std::int64_t> out;
  sw.for_each([&](std::int64_t, std::int64_t, const std::int64_t* v) { out.push_back(v[slot]); });
  return out;
}

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kQuarter = std::int64_t{1} << 62;

TEST(Sweep, StridesAtTheInt64EdgeVisitExactlyTheirPoints) {
  EXPECT_EQ(m_values("S[2:-9223372036854775807-1]", false), (std::vector<std::int64_t>{0, kMin}));
  EXPECT_EQ(m_values("S[(2,2):(-4611686018427387904,4611686018427387904)]", false),
            (std::vector<std::int64_t>{0, kQuarter, -kQuarter, 0}));
  EXPECT_EQ(m_values("S[2:1] + R[2:-9223372036854775807-1]", true), (std::vector<std::int64_t>{0, kMin, 1, kMin + 1}));
  EXPECT_EQ(m_values("S[3:-4611686018427387904] + 9223372036854775807", false),
            (std::vector<std::int64_t>{9223372036854775807, 9223372036854775807 - kQuarter, -1}));
}

TEST(Sweep, OrdinaryOdometerOrder) {
  EXPECT_EQ(m_values("S[(2,3):(10,1)]", false), (std::vector<std::int64_t>{0, 1, 2, 10, 11, 12}));
  EXPECT_EQ(m_values("S[2:4] + R[(2,2):(1,2)]", true), (std::vector<std::int64_t>{0, 2, 1, 3, 4, 6, 5, 7}));
}

}  // namespace
}  // namespace tirx
