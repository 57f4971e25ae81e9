// direct_sum() and its recognizers: TVM tests/python/tirx/test_layout.py test_direct_sum and
// spec (e); the scale-factor use (sf_tmem_layout) is tested with the factories.
#include <gtest/gtest.h>

#include "layout_algebra_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {
namespace {

using test::C;
using test::L;

TEST(DirectSum, TvmCase) {
  const TileLayout B = L("S[(2,2):(4,1)]"), A = L("S[(2,2):(8,2)]");
  const Layout sum = direct_sum(Layout(B), A, Shape{2, 2}, Shape{2, 2});
  EXPECT_LAYOUT_EQ(canonicalize(sum), Layout(L("S[16:1]")));
  // apply(p,q,i,j, shape=(2,2,2,2)) = A(p,i) + B(q,j) = 8p + 2i + 4q + j
  for (std::int64_t p = 0; p < 2; ++p)
    for (std::int64_t q = 0; q < 2; ++q)
      for (std::int64_t i = 0; i < 2; ++i)
        for (std::int64_t j = 0; j < 2; ++j) {
          const std::int64_t c[] = {p, q, i, j}, s[] = {2, 2, 2, 2}, a[] = {p, i}, b[] = {q, j}, s2[] = {2, 2};
          EXPECT_EQ(sum.apply(c, s).get(AxisId::m), 8 * p + 2 * i + 4 * q + j);
          EXPECT_EQ(sum.apply(c, s).get(AxisId::m), A.apply(a, s2).get(AxisId::m) + B.apply(b, s2).get(AxisId::m));
        }
  // Recognition (test_direct_sum): recover A from B and the sum, and B from A.
  const std::int64_t interleaved[] = {2, 2, 2, 2};
  const auto a_rec = is_direct_sum_right(Layout(B), sum, interleaved, Shape{2, 2});
  ASSERT_TRUE(a_rec.has_value());
  EXPECT_LAYOUT_EQ(Layout(canonicalize(*a_rec)), Layout(canonicalize(A)));
  const auto b_rec = is_direct_sum_left(Layout(A), sum, interleaved, Shape{2, 2});
  ASSERT_TRUE(b_rec.has_value());
  EXPECT_LAYOUT_EQ(Layout(canonicalize(*b_rec)), Layout(canonicalize(B)));
}

TEST(DirectSum, ReplicasConcatenateAndOffsetsAdd) {
  // atom + outer as sf_tmem_layout builds it: replicas left then right, offsets summed.
  const TileLayout atom = L("S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane] + 2@TCol");
  const TileLayout outer = L("S[(4,2):(4@TCol,16@TCol)] + 1@TCol");
  const Layout sum = direct_sum(Layout(atom), outer, Shape{4, 2}, Shape{32, 4});
  EXPECT_LAYOUT_EQ(sum, Layout(L("S[(4,32,2,4):(4@TCol,1@TLane,16@TCol,1@TCol)] + R[4:32@TLane] + 3@TCol")));
  const std::int64_t inter[] = {4, 32, 2, 4};
  const auto left = is_direct_sum_right(Layout(atom), sum, inter, Shape{32, 4});
  ASSERT_TRUE(left.has_value());
  EXPECT_LAYOUT_EQ(Layout(*left), Layout(L("S[(4,2):(4@TCol,16@TCol)] + 1@TCol")));
  // A different atom does not match.
  EXPECT_FALSE(is_direct_sum_right(Layout(L("S[(32,4):(1@TLane,2@TCol)]")), sum, inter, Shape{32, 4}).has_value());
}

TEST(DirectSum, ComposeRightAddend) {
  // A bare swizzle is the identity over right_shape; the left addend moves whole atoms.
  const Layout sum = direct_sum(Layout(C(3, 3, 3, "S[512:1]")), L("S[2:512]"), Shape{2}, Shape{512});
  EXPECT_LAYOUT_EQ(sum, Layout(C(3, 3, 3, "S[1024:1]")));
  const std::int64_t inter[] = {2, 512};
  EXPECT_FALSE(is_direct_sum_right(Layout(L("S[512:1]")), sum, inter, Shape{512}).has_value());  // kinds differ
  const auto left = is_direct_sum_right(Layout(C(3, 3, 3, "S[512:1]")), sum, inter, Shape{512});
  ASSERT_TRUE(left.has_value());
  EXPECT_LAYOUT_EQ(Layout(*left), Layout(L("S[2:512]")));
}

TEST(DirectSum, Errors) {
  EXPECT_THROW(direct_sum(Layout(L("S[4:1]")), L("S[2:4]"), Shape{2}, Shape{2, 2}), InputError);
  EXPECT_THROW(direct_sum(Layout(L("S[4:1]")), L("S[2:4]"), Shape{3}, Shape{4}), InputError);  // not groupable
  const std::int64_t inter3[] = {2, 2, 4};
  EXPECT_THROW(is_direct_sum_right(Layout(L("S[4:1]")), Layout(L("S[16:1]")), inter3, Shape{4}), InputError);
}

}  // namespace
}  // namespace tirx
