// int64 helpers (include/tirx_verify/layout/checked.hpp): checked arithmetic and Python-style
// floor division / modulo, at the extremes. Expected values are Python's // and %.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

TEST(Checked, FloorDivAndModFollowPython) {
  EXPECT_EQ(floor_div(7, 2), 3);
  EXPECT_EQ(floor_div(-7, 2), -4);
  EXPECT_EQ(floor_div(7, -2), -4);
  EXPECT_EQ(floor_div(-7, -2), 3);
  EXPECT_EQ(floor_mod(7, 2), 1);
  EXPECT_EQ(floor_mod(-7, 2), 1);
  EXPECT_EQ(floor_mod(7, -2), -1);
  EXPECT_EQ(floor_mod(-7, -2), -1);
  EXPECT_EQ(floor_mod(5, -3), -1);
  EXPECT_EQ(floor_mod(-5, 3), 1);
  EXPECT_EQ(floor_mod(6, -3), 0);
}

TEST(Checked, FloorModAtTheInt64Extremes) {
  // Fuzzing (tests/fuzz/regressions/notation/floor_mod_overflow.txt, "9223372036854775807%-44"):
  // a - floor_div(a, b) * b overflowed; Python gives -37.
  EXPECT_EQ(floor_div(kMax, -44), -209622091746699451);
  EXPECT_EQ(floor_mod(kMax, -44), -37);
  EXPECT_EQ(floor_mod(kMin, 7), 6);
  EXPECT_EQ(floor_mod(kMin, -7), -1);
  EXPECT_EQ(floor_mod(kMin, kMax), kMax - 1);
  EXPECT_EQ(floor_mod(kMin, -1), 0);
  EXPECT_EQ(floor_mod(kMax, kMin), -1);
}

TEST(Checked, OverflowIsAnInputError) {
  EXPECT_THROW(checked_mul(kMax, 2), InputError);
  EXPECT_THROW(checked_add(kMax, 1), InputError);
  EXPECT_THROW(checked_sub(kMin, 1), InputError);
  try {
    checked_mul(std::int64_t{1} << 32, std::int64_t{1} << 32, "the extent product");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "layout.well-formed");
    EXPECT_EQ(e.message(), "integer overflow in the extent product (values are int64)");
  }
}

}  // namespace
}  // namespace tirx
