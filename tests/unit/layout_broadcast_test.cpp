// Declared broadcasts (Iter::broadcast): which factories and ops mark a stride-0 iter as made on
// purpose, which keep the mark, and that the mark is not part of the map (==, printing).
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {
namespace {
using namespace tirx::test;

// The indices of the shard iters that are declared broadcasts.
std::vector<std::size_t> declared(const TileLayout& t) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < t.shard.size(); ++i)
    if (t.shard[i].is_declared_broadcast()) out.push_back(i);
  return out;
}

TEST(Broadcast, SfReuseMarksItsIter) {
  const TileLayout t = sf_tmem_layout(128, 4, 1, /*sf_reuse=*/4, /*pipe_depth=*/2);
  EXPECT_EQ(print_layout(Layout(t)),
            "S[(2,4,32,4,4):(16@TCol,4@TCol,1@TLane,1@TCol,0@TCol)] + R[4:32@TLane]");
  EXPECT_EQ(declared(t), (std::vector<std::size_t>{4}));
  EXPECT_TRUE(declared(sf_tmem_layout(128, 4, 1)).empty());  // sf_reuse 1: no stride-0 iter at all
  const TileLayout s = sf_smem_layout(128, 16, 4, /*sf_reuse=*/2);
  ASSERT_EQ(declared(s).size(), 1u);
  EXPECT_EQ(s.shard[declared(s)[0]].extent, 2);
  // Through the notation too.
  EXPECT_EQ(declared(parse_layout("sf_tmem_layout(128, 4, 1, sf_reuse=4, pipe_depth=2)").tile()),
            (std::vector<std::size_t>{4}));
}

TEST(Broadcast, BroadcastMarksTheInsertedIterOnly) {
  const Layout l = broadcast(Layout(TL({I(4, 4), I(32, 0), I(4, 1)})), 3);
  ASSERT_EQ(l.tile().shard.size(), 4u);
  EXPECT_EQ(declared(l.tile()), (std::vector<std::size_t>{3}));  // the written 32:0 stays undeclared
  const Layout front = broadcast(Layout(TL({I(8, 1)})), 2, 0, Axis(AxisId::laneid));
  EXPECT_EQ(declared(front.tile()), (std::vector<std::size_t>{0}));
  EXPECT_EQ(front.tile().shard[0].axis, Axis(AxisId::laneid));
  EXPECT_EQ(declared(parse_layout("TileLayout(S[(2, 4, 32):(128, 1, 4)]).unpack(4).broadcast(3)").tile()),
            (std::vector<std::size_t>{4}));
}

TEST(Broadcast, DeclareBroadcastsMarksEveryStrideZeroShardIter) {
  const Layout l = declare_broadcasts(Layout(TL({I(2, 0), I(64, 1), I(4, 0, "laneid")}, {I(2, 0, "warpid")})));
  EXPECT_EQ(declared(l.tile()), (std::vector<std::size_t>{0, 2}));
  EXPECT_FALSE(l.tile().replica[0].broadcast);  // a stride-0 replica is never a declared broadcast
  EXPECT_EQ(l, Layout(TL({I(2, 0), I(64, 1), I(4, 0, "laneid")}, {I(2, 0, "warpid")})));  // same map
}

TEST(Broadcast, TheMarkIsNotPartOfTheMap) {
  const Iter marked = B(4), plain = I(4, 0);
  EXPECT_EQ(marked, plain);
  EXPECT_TRUE(marked.is_declared_broadcast());
  EXPECT_FALSE(plain.is_declared_broadcast());
  Iter strided = marked;
  strided.stride = 2;  // the mark only counts while the stride is 0
  EXPECT_FALSE(strided.is_declared_broadcast());
  // Printing loses it: the text reads back as the same map, undeclared.
  const Layout l = broadcast(Layout(TL({I(8, 1)})), 4);
  const Layout back = parse_layout(print_layout(l));
  EXPECT_EQ(back, l);
  EXPECT_TRUE(declared(back.tile()).empty());
}

TEST(Broadcast, CanonicalizeKeepsTheMarkOnlyWhenEveryFusedPartHadIt) {
  // Two adjacent declared stride-0 iters fuse into one declared iter of the product extent.
  const TileLayout both = canonicalize(TL({I(8, 1), B(2), B(3)}));
  ASSERT_EQ(both.shard.size(), 2u);
  EXPECT_EQ(both.shard[1].extent, 6);
  EXPECT_EQ(declared(both), (std::vector<std::size_t>{1}));
  // A declared and an undeclared one fuse into an undeclared iter (a contraction stays visible).
  const TileLayout mixed = canonicalize(TL({I(8, 1), B(2), I(3, 0)}));
  ASSERT_EQ(mixed.shard.size(), 2u);
  EXPECT_EQ(mixed.shard[1].extent, 6);
  EXPECT_TRUE(declared(mixed).empty());
  // Unit iters go, the mark of the others stays.
  EXPECT_EQ(declared(canonicalize(TL({B(4), I(1, 7), I(8, 1)}))), (std::vector<std::size_t>{0}));
}

}  // namespace
}  // namespace tirx
