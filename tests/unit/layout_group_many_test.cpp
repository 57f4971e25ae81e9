// group_many(): facts from TVM tests/python/tirx/test_layout.py
// (test_group_many_uses_minimal_common_refinement, ..._preserves_repeated_boundaries_as_unit_iters,
// ..._preserves_existing_unit_iter_stride, ..._rejects_incompatible_boundaries,
// ..._accepts_only_provably_ordered_symbolic_boundaries) and spec (e).
#include <gtest/gtest.h>

#include "layout_algebra_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {
namespace {

using test::L;
using Seps = std::vector<std::vector<std::size_t>>;

GroupedMany gm(std::string_view layout, std::vector<Shape> shapes) { return group_many(L(layout), shapes); }

TEST(GroupMany, MinimalCommonRefinement) {
  // test_group_many_uses_minimal_common_refinement
  const GroupedMany g = gm("S[30:1]", {{6, 5}, {2, 15}});
  EXPECT_LAYOUT_EQ(Layout(g.layout), Layout(L("S[(2,3,5):(15,5,1)]")));
  EXPECT_EQ(g.seps, (Seps{{0, 2, 3}, {0, 1, 3}}));
}

TEST(GroupMany, RepeatedBoundariesBecomeUnitIters) {
  // test_group_many_preserves_repeated_boundaries_as_unit_iters
  const GroupedMany g = gm("S[30:1]", {{1, 6, 1, 5, 1}, {2, 1, 3, 5}});
  EXPECT_LAYOUT_EQ(Layout(g.layout), Layout(L("S[(1,2,1,3,1,5,1):(30,15,15,5,5,1,1)]")));
  EXPECT_EQ(g.seps, (Seps{{0, 1, 4, 5, 6, 7}, {0, 2, 3, 4, 7}}));
}

TEST(GroupMany, ExistingUnitIterKeepsItsStride) {
  // test_group_many_preserves_existing_unit_iter_stride
  const GroupedMany g = gm("S[(6,1,5):(5,97,1)]", {{6, 1, 5}, {30}});
  EXPECT_LAYOUT_EQ(Layout(g.layout), Layout(L("S[(6,1,5):(5,97,1)]")));
  EXPECT_EQ(g.seps, (Seps{{0, 1, 2, 3}, {0, 3}}));
}

TEST(GroupMany, SplitsMultiIterLayoutsAndKeepsReplicaOffset) {
  // Each block's extent product equals the matching shape dimension, and the function is kept.
  const TileLayout l = L("S[(4,6):(1@laneid,4)] + R[2:32@laneid] + 3");
  const GroupedMany g = group_many(l, std::vector<Shape>{{2, 12}, {8, 3}});
  EXPECT_LAYOUT_EQ(Layout(g.layout), Layout(L("S[(2,2,2,3):(2@laneid,1@laneid,12,4)] + R[2:32@laneid] + 3")));
  EXPECT_EQ(g.seps, (Seps{{0, 1, 4}, {0, 3, 4}}));
  for (std::int64_t x = 0; x < 24; ++x) EXPECT_EQ(g.layout.apply(x), l.apply(x)) << x;
}

TEST(GroupMany, Errors) {
  auto expect_error = [](std::string_view layout, std::vector<Shape> shapes, std::string_view what) {
    SCOPED_TRACE(layout);
    try {
      (void)group_many(L(layout), shapes);
      FAIL() << "expected an InputError";
    } catch (const InputError& e) {
      EXPECT_EQ(e.check_id(), "layout.well-formed");
      EXPECT_NE(e.message().find(what), std::string::npos) << e.message();
    }
  };
  // test_group_many_rejects_incompatible_boundaries
  expect_error("S[12:1]", {{3, 4}, {2, 6}}, "incompatible cumulative boundaries");
  expect_error("S[12:1]", {}, "at least one shape");
  expect_error("S[12:1]", {{}}, "empty");
  expect_error("S[12:1]", {{12}, {3, 5}}, "different sizes");
  expect_error("S[12:1]", {{6, 3}}, "the layout has 12 elements");
  expect_error("S[12:1]", {{12, 0}}, "must be >= 1");
  // test_group_many_accepts_only_provably_ordered_symbolic_boundaries, made concrete: with
  // e = 3, ([2,e],[e,2]) over S[6:1] has boundaries 2 and 3, which do not divide each other.
  expect_error("S[6:1]", {{2, 3}, {3, 2}}, "incompatible cumulative boundaries");
}

}  // namespace
}  // namespace tirx
