// tile(), tile_to(), is_tile_inner(), is_tile_outer(): facts from TVM
// tests/python/tirx/test_layout.py (test_tile_layout, test_shard_layout, test_tile_to,
// test_storage case4, test_group_by_logical_shape) and the spec (e)/(f) tile examples.
#include <gtest/gtest.h>

#include "layout_algebra_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {
namespace {

using test::C;
using test::L;

Layout T(std::string_view inner, std::string_view outer, Shape outer_shape, Shape inner_shape) {
  return tile(Layout(L(inner)), L(outer), outer_shape, inner_shape);
}

// The defining property: element (o, i) of the tiled layout (logical coordinate
// o[d]*inner[d] + i[d]) sits at (outer(o) - O_outer) * span + O_outer + inner(i), where span is
// the inner span on m and O_outer the outer offset (TVM does not rescale outer offsets);
// checked on the m axis for layouts whose outer lives on m.
void expect_tiles_m(const TileLayout& inner, const TileLayout& outer, const Shape& os, const Shape& is) {
  const Layout t = tile(Layout(inner), outer, os, is);
  const std::int64_t span = inner.span(AxisId::m);
  Shape ts(os.size());
  for (std::size_t d = 0; d < os.size(); ++d) ts[d] = os[d] * is[d];
  const std::int64_t on = outer.size(), in = inner.size();
  for (std::int64_t a = 0; a < on; ++a)
    for (std::int64_t b = 0; b < in; ++b) {
      // split a over os and b over is row-major
      std::vector<std::int64_t> oc(os.size()), ic(is.size()), tc(os.size());
      std::int64_t ra = a, rb = b;
      for (std::size_t d = os.size(); d-- > 0;) {
        oc[d] = ra % os[d];
        ra /= os[d];
        ic[d] = rb % is[d];
        rb /= is[d];
        tc[d] = oc[d] * is[d] + ic[d];
      }
      const std::int64_t o_off = outer.offset.get(AxisId::m);
      const std::int64_t want =
          (outer.apply(oc, os).get(AxisId::m) - o_off) * span + o_off + inner.apply(ic, is).get(AxisId::m);
      ASSERT_EQ(t.apply(tc, ts).get(AxisId::m), want) << "a=" << a << " b=" << b;
    }
}

TEST(Tile, TvmTileLayoutCases) {
  // test_tile_layout case1..case3, case6_sharded2 and the derived normalized cases
  EXPECT_LAYOUT_EQ(T("S[8:1]", "S[8:1]", {8}, {8}), Layout(L("S[64:1]")));
  EXPECT_LAYOUT_EQ(T("S[(8,8):(8,1)]", "S[(8,8):(8,1)]", {8, 8}, {8, 8}), Layout(L("S[(8,8,8,8):(512,8,64,1)]")));
  EXPECT_LAYOUT_EQ(T("S[(2,4):(1,2)]", "S[(8,8):(8,1)]", {8, 8}, {2, 4}), Layout(L("S[(8,2,32):(64,1,2)]")));
  EXPECT_LAYOUT_EQ(T("S[(4,2,2,4):(16,8,1,2)]", "S[(8,8):(8,1)]", {8, 8}, {8, 8}),
                   Layout(canonicalize(L("S[(8,4,2,8,2,4):(512,16,8,64,1,2)]"))));
  EXPECT_LAYOUT_EQ(T("S[(8,1,4,2):(4@laneid,2,1@laneid,1)]", "S[(8,8):(8,1)]", {8, 8}, {8, 8}),
                   Layout(canonicalize(L("S[(8,8,1,8,4,2):(16,4@laneid,2,2,1@laneid,1)]"))));
  EXPECT_LAYOUT_EQ(T("S[(8,4):(4@laneid,1@laneid)]", "S[(8,8):(8,1)]", {8, 8}, {8, 4}),
                   Layout(L("S[(8,8,8,4):(8,4@laneid,1,1@laneid)]")));
  // case7_normalized4 / case8_normalized5 / case9_normalized6 / case11_normalized8 / case12_normalized9
  EXPECT_LAYOUT_EQ(T("S[(2,4,1):(2,3,1)]", "S[(4,2,1):(2,1,1)]", {4, 2}, {2, 4}), Layout(L("S[(4,2,8):(24,2,3)]")));
  EXPECT_LAYOUT_EQ(T("S[(2,4):(4,1)]", "S[(8,2):(2,1)]", {8, 2}, {2, 4}), Layout(L("S[(8,2,2,4):(16,4,8,1)]")));
  EXPECT_LAYOUT_EQ(T("S[(2,1,1):(4,3,1)]", "S[(8,4,1):(4,1,4)]", {8, 4}, {2, 1}), Layout(L("S[(8,2,4):(20,4,5)]")));
  EXPECT_LAYOUT_EQ(T("S[(8,8,1,4,2):(4,4@laneid,2,1@laneid,1)]", "S[(8,8,4):(32,4,1)]", {8, 8, 4}, {8, 8, 8}),
                   Layout(L("S[(8,8,8,8,4,4,2):(960,4,120,4@laneid,30,1@laneid,1)]")));
  EXPECT_LAYOUT_EQ(T("S[(2,4,2,2):(4,1,4,3)]", "S[(16,8,4):(1,64,16)]", {16, 8, 4}, {8, 2, 2}),
                   Layout(L("S[(16,8,8,2,4,2):(15,1,960,4,240,3)]")));
}

TEST(Tile, ElementPlacementMatchesDefinition) {
  expect_tiles_m(L("S[(2,4):(1,2)]"), L("S[(8,8):(8,1)]"), {8, 8}, {2, 4});
  expect_tiles_m(L("S[(2,4,2,2):(4,1,4,3)]"), L("S[(16,8,4):(1,64,16)]"), {16, 8, 4}, {8, 2, 2});
  expect_tiles_m(L("S[(3,5):(7,1)] + 2"), L("S[(2,3):(1,2)] + 1"), {2, 3}, {3, 5});
}

TEST(Tile, ShardLayouts) {
  // test_shard_layout case_mma_layout / case_quad_shuffle / case_cta_layout / case_replicate
  EXPECT_LAYOUT_EQ(T("S[(1,2):(2,1)]", "S[(8,4):(4@laneid,1@laneid)]", {8, 4}, {1, 2}),
                   Layout(L("S[(32,2):(1@laneid,1)]")));
  EXPECT_LAYOUT_EQ(T("S[(1,2):(2,1)]", "S[8:4@laneid]", {8, 1}, {1, 2}), Layout(L("S[(8,2):(4@laneid,1)]")));
  const Layout warp = T("S[(1,2):(2,1)]", "S[(8,4):(4@laneid,1@laneid)]", {8, 4}, {1, 2});
  EXPECT_LAYOUT_EQ(tile(warp, L("S[(2,2):(2@warpid,1@warpid)]"), Shape{2, 2}, Shape{8, 8}),
                   Layout(L("S[(2,8,2,4,2):(2@warpid,4@laneid,1@warpid,1@laneid,1)]")));
  EXPECT_LAYOUT_EQ(T("S[(64,128):(128,1)]", "S[2:2@warpid] + R[2:1@warpid]", {2, 1}, {64, 128}),
                   Layout(L("S[(2,8192):(2@warpid,1)] + R[2:1@warpid]")));
  // spec (e): outer iters on axes the inner shard does not use keep their stride
  EXPECT_LAYOUT_EQ(T("S[2:1]", "S[4:1@laneid]", {4}, {2}), Layout(L("S[(4,2):(1@laneid,1)]")));
  EXPECT_LAYOUT_EQ(T("S[2:1@laneid]", "S[4:1@laneid]", {4}, {2}), Layout(L("S[8:1@laneid]")));
}

TEST(Tile, AllUnitInnerStillScalesTheOuterStride) {
  // Found by the property test: the canonical inner S[1:1] + 1 keeps one (1,1) iter on m, so
  // m is an inner axis with span 2 and the outer stride doubles (TVM's group keeps that unit
  // iter for an extent-1 dimension and scales the same way).
  EXPECT_LAYOUT_EQ(T("S[1:-4] + 1", "S[3:-4]", {3}, {1}), Layout(L("S[3:-8] + 1")));
}

TEST(Tile, InnerSpanIncludesReplicaAndOffset) {
  // The inner span on m is 1 + 3*1 + 1*4 (replica) + 2 (offset) = 10, so outer steps by 10.
  EXPECT_LAYOUT_EQ(T("S[4:1] + R[2:4] + 2", "S[3:1]", {3}, {4}), Layout(L("S[(3,4):(10,1)] + R[2:4] + 2")));
  // Outer replica and offset are not rescaled; offsets add.
  EXPECT_LAYOUT_EQ(T("S[4:1] + 1", "S[3:1] + R[2:5] + 7", {3}, {4}), Layout(L("S[(3,4):(5,1)] + R[2:5] + 8")));
}

TEST(Tile, ComposeLayouts) {
  // spec (f) / test_tile_layout case_tile_swizzle_layout(2,3), case_tile_compose_layout
  const Layout sw128 = Layout(C(3, 3, 3, "S[512:1]"));
  EXPECT_LAYOUT_EQ(tile(sw128, L("S[(8,4):(1,8)]"), Shape{8, 4}, Shape{8, 64}),
                   Layout(C(3, 3, 3, "S[(64,4,64):(64,4096,1)]")));
  EXPECT_LAYOUT_EQ(tile(sw128, L("S[(3,8,4):(32,1,8)]"), Shape{3, 8, 4}, Shape{1, 8, 64}),
                   Layout(C(3, 3, 3, "S[(3,64,4,64):(16384,64,4096,1)]")));
  EXPECT_LAYOUT_EQ(tile(Layout(C(3, 2, 3, "S[256:1]")), L("S[(8,8):(1,8)]"), Shape{8, 8}, Shape{8, 32}),
                   Layout(C(3, 2, 3, "S[(64,8,32):(32,2048,1)]")));
  EXPECT_LAYOUT_EQ(tile(Layout(C(3, 3, 3, "S[(8,64):(64,1)]")), L("S[(8,1):(1,1)]"), Shape{8, 1}, Shape{8, 64}),
                   Layout(C(3, 3, 3, "S[4096:1]")));
  // A bare swizzle means the identity over inner_shape, whatever its own extent.
  EXPECT_LAYOUT_EQ(tile(Layout(C(3, 3, 3, "S[512:1]")), L("S[2:1]"), Shape{2}, Shape{1024}),
                   Layout(C(3, 3, 3, "S[2048:1]")));
}

TEST(Tile, TileTo) {
  // test_tile_to
  const Layout l = Layout(L("S[(8,8):(8,1)]"));
  EXPECT_LAYOUT_EQ(tile_to(l, Shape{64, 64}, Shape{8, 8}), tile(l, L("S[(8,8):(8,1)]"), Shape{8, 8}, Shape{8, 8}));
  EXPECT_LAYOUT_EQ(tile_to(l, Shape{64, 64}, Shape{8, 8}), Layout(L("S[(8,8,8,8):(512,8,64,1)]")));
  EXPECT_THROW(tile_to(l, Shape{64, 60}, Shape{8, 8}), InputError);  // not a multiple (TVM floors)
  EXPECT_THROW(tile_to(l, Shape{4, 8}, Shape{8, 8}), InputError);    // smaller (TVM: divide by zero)
  EXPECT_THROW(tile_to(l, Shape{64}, Shape{8, 8}), InputError);
}

TEST(Tile, GroupOfATiledLayout) {
  // test_group_by_logical_shape / test_permute_by_groups setup
  const Layout t = tile(Layout(L("S[(8,8):(8,1)]")), L("S[(8,8):(8,1)]"), Shape{8, 8}, Shape{8, 8});
  const Grouped g = group(t.tile(), Shape{64, 64});
  EXPECT_LAYOUT_EQ(Layout(g.layout), t);
  EXPECT_EQ(g.seps, (std::vector<std::size_t>{0, 2, 4}));
}

TEST(Tile, StorageOfATiledThreadLayout) {
  // test_storage case4
  const Layout l = tile(tile(tile(Layout(L("S[2:1]")), L("S[(8,4):(4@laneid,1@laneid)]"), Shape{8, 4}, Shape{1, 2}),
                             L("S[(2,1):(1,2)]"), Shape{2, 1}, Shape{8, 8}),
                        L("S[(1,8):(8,1)]"), Shape{1, 8}, Shape{16, 8});
  EXPECT_LAYOUT_EQ(l, Layout(L("S[(2,8,8,4,2):(2,4@laneid,4,1@laneid,1)]")));
  const Layout st = tile(tile(Layout(L("S[2:1]")), L("S[(2,1):(1,2)]"), Shape{2, 1}, Shape{1, 2}),
                         L("S[(1,8):(8,1)]"), Shape{1, 8}, Shape{2, 2});
  EXPECT_LAYOUT_EQ(canonicalize(storage(l)), canonicalize(st));
  EXPECT_LAYOUT_EQ(canonicalize(storage(l)), Layout(L("S[(2,8,2):(2,4,1)]")));
}

TEST(Tile, Errors) {
  // case_dims_mismatch
  EXPECT_THROW(T("S[(2,4):(1,2)]", "S[8:1]", {8}, {2, 4}), InputError);
  // the inner layout cannot be grouped by inner_shape
  EXPECT_THROW(T("S[(3,4):(4,1)]", "S[2:1]", {2}, {8}), InputError);
  EXPECT_THROW(T("S[4:1]", "S[2:1]", {2}, {0}), InputError);
}

// ---------------- is_tile_inner / is_tile_outer ----------------

std::optional<TileLayout> inner_of(std::string_view inner, const Layout& tiled, Shape ts, Shape is,
                                   bool cuda = false) {
  return is_tile_inner(Layout(L(inner)), tiled, ts, is, CanonicalizeOptions{cuda});
}

TEST(TileMatch, RecoversOuterAndInner) {
  struct Case {
    const char* inner;
    const char* outer;
    Shape outer_shape, inner_shape;
  };
  // test_tile_layout case1..case9, case11, case12, test_shard_layout cases (round trips)
  const Case cases[] = {
      {"S[8:1]", "S[8:1]", {8}, {8}},
      {"S[(8,8):(8,1)]", "S[(8,8):(8,1)]", {8, 8}, {8, 8}},
      {"S[(2,4):(1,2)]", "S[(8,8):(8,1)]", {8, 8}, {2, 4}},
      {"S[(4,2,2,4):(16,8,1,2)]", "S[(8,8):(8,1)]", {8, 8}, {8, 8}},
      {"S[(8,1,4,2):(4@laneid,2,1@laneid,1)]", "S[(8,8):(8,1)]", {8, 8}, {8, 8}},
      {"S[(8,4):(4@laneid,1@laneid)]", "S[(8,8):(8,1)]", {8, 8}, {8, 4}},
      {"S[(2,4,1):(2,3,1)]", "S[(4,2,1):(2,1,1)]", {4, 2}, {2, 4}},
      {"S[(2,4):(4,1)]", "S[(8,2):(2,1)]", {8, 2}, {2, 4}},
      {"S[(2,1,1):(4,3,1)]", "S[(8,4,1):(4,1,4)]", {8, 4}, {2, 1}},
      {"S[(8,8,1,4,2):(4,4@laneid,2,1@laneid,1)]", "S[(8,8,4):(32,4,1)]", {8, 8, 4}, {8, 8, 8}},
      {"S[(2,4,2,2):(4,1,4,3)]", "S[(16,8,4):(1,64,16)]", {16, 8, 4}, {8, 2, 2}},
      {"S[(1,2):(2,1)]", "S[(8,4):(4@laneid,1@laneid)]", {8, 4}, {1, 2}},
      {"S[(1,2):(2,1)]", "S[8:4@laneid]", {8, 1}, {1, 2}},
      {"S[(64,128):(128,1)]", "S[2:2@warpid] + R[2:1@warpid]", {2, 1}, {64, 128}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.inner) + " in " + c.outer);
    const Layout tiled = T(c.inner, c.outer, c.outer_shape, c.inner_shape);
    Shape ts(c.outer_shape.size());
    for (std::size_t d = 0; d < ts.size(); ++d) ts[d] = c.outer_shape[d] * c.inner_shape[d];
    const auto outer = inner_of(c.inner, tiled, ts, c.inner_shape);
    ASSERT_TRUE(outer.has_value());
    EXPECT_LAYOUT_EQ(Layout(canonicalize(*outer)), Layout(canonicalize(L(c.outer))));
    const auto inner = is_tile_outer(Layout(L(c.outer)), tiled, ts, c.outer_shape);
    ASSERT_TRUE(inner.has_value());
    EXPECT_LAYOUT_EQ(canonicalize(*inner), Layout(canonicalize(L(c.inner))));
  }
}

TEST(TileMatch, RejectsWrongRoles) {
  // test_tile_layout case3/case4/case5/case6 negative halves, case4's direct None, case10.
  const Layout t3 = Layout(L("S[(8,2,32):(64,1,2)]"));
  EXPECT_FALSE(inner_of("S[(8,8):(8,1)]", t3, {16, 32}, {8, 8}).has_value());
  EXPECT_FALSE(is_tile_outer(Layout(L("S[(2,4):(1,2)]")), t3, Shape{16, 32}, Shape{2, 4}).has_value());
  EXPECT_FALSE(inner_of("S[(8,8):(8,1)]", Layout(L("S[(8,4,2,8,2,4):(512,16,8,64,1,2)]")), {64, 64}, {8, 8}));
  const Layout t10 = tile(Layout(L("S[(1,2,1):(4,3,1)]")), L("S[(8,8,4):(32,4,1)]"), Shape{8, 8, 4}, Shape{1, 2, 1});
  ASSERT_TRUE(inner_of("S[(1,2,1):(4,3,1)]", t10, {8, 16, 4}, {1, 2, 1}).has_value());
  EXPECT_LAYOUT_EQ(Layout(canonicalize(*inner_of("S[(1,2,1):(4,3,1)]", t10, {8, 16, 4}, {1, 2, 1}))),
                   Layout(canonicalize(L("S[(8,8,4):(32,4,1)]"))));
  EXPECT_FALSE(inner_of("S[(8,8,4):(32,4,1)]", t10, {8, 16, 4}, {8, 8, 4}).has_value());
  // case10_normalized7: inner S[(1,2,2):(8,4,3)] is not the inner of that tiling
  EXPECT_FALSE(inner_of("S[(1,2,2):(8,4,3)]", t10, {8, 16, 4}, {1, 2, 2}).has_value());
}

TEST(TileMatch, ShardLayoutWithoutTarget) {
  // test_shard_layout case_cta_layout: the outer (warp+cta) of a per-thread layout
  const Layout res = Layout(L("S[(2,8,2,4,2):(2@warpid,4@laneid,1@warpid,1@laneid,1)]"));
  const auto outer = inner_of("S[(1,2):(2,1)]", res, {16, 16}, {1, 2});
  ASSERT_TRUE(outer.has_value());
  EXPECT_LAYOUT_EQ(Layout(*outer), Layout(L("S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]")));
  const auto inner = is_tile_outer(Layout(L("S[(2,2):(2@warpid,1@warpid)]")), res, Shape{16, 16}, Shape{2, 2});
  ASSERT_TRUE(inner.has_value());
  EXPECT_LAYOUT_EQ(canonicalize(*inner), Layout(L("S[(32,2):(1@laneid,1)]")));
}

TEST(TileMatch, ShardLayoutUnderCudaSplitsTx) {
  // test_shard_layout case_cta_layout2 (under `with Target("cuda")`)
  const Layout tiled = Layout(L("S[(2,8,2,4,2):(64@tx,4@tx,32@tx,1@tx,1)]"));
  const CanonicalizeOptions cuda{true};
  auto o1 = inner_of("S[2:1]", tiled, {16, 16}, {1, 2}, true);
  ASSERT_TRUE(o1.has_value());
  EXPECT_LAYOUT_EQ(Layout(canonicalize(*o1, cuda)), Layout(canonicalize(L("S[(2,8,2,4):(64@tx,4@tx,32@tx,1@tx)]"), cuda)));
  auto i1 = is_tile_outer(Layout(L("S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]")), tiled, Shape{16, 16},
                          Shape{16, 8}, cuda);
  ASSERT_TRUE(i1.has_value());
  EXPECT_LAYOUT_EQ(canonicalize(*i1, cuda), Layout(L("S[2:1]")));
  // warp view is inner of cta: tx is split back into warpid/laneid (fact: S[(2,2):(2@warpid,1@warpid)])
  auto o2 = inner_of("S[(8,1,4,2):(4@laneid,2,1@laneid,1)]", tiled, {16, 16}, {8, 8}, true);
  ASSERT_TRUE(o2.has_value());
  EXPECT_LAYOUT_EQ(Layout(canonicalize(*o2, cuda)), Layout(canonicalize(L("S[(2,2):(2@warpid,1@warpid)]"), cuda)));
  EXPECT_LAYOUT_EQ(Layout(*o2), Layout(L("S[(2,2):(2@warpid,1@warpid)]")));
  auto i2 = is_tile_outer(Layout(L("S[(2,2):(2@warpid,1@warpid)]")), tiled, Shape{16, 16}, Shape{2, 2}, cuda);
  ASSERT_TRUE(i2.has_value());
  EXPECT_LAYOUT_EQ(canonicalize(*i2, cuda), Layout(L("S[(32,2):(1@laneid,1)]")));
}

TEST(TileMatch, ComposeLayouts) {
  // test_tile_layout case_tile_compose_layout
  const Layout compose = Layout(C(3, 3, 3, "S[(8,64):(64,1)]"));
  const TileLayout outer = L("S[(8,1):(1,1)]");
  const Layout tiled = tile(compose, outer, Shape{8, 1}, Shape{8, 64});
  EXPECT_LAYOUT_EQ(canonicalize(tiled), Layout(C(3, 3, 3, "S[4096:1]")));
  auto o = is_tile_inner(compose, tiled, Shape{4096}, Shape{512});
  ASSERT_TRUE(o.has_value());
  EXPECT_LAYOUT_EQ(Layout(canonicalize(*o)), Layout(L("S[8:1]")));
  auto i = is_tile_outer(Layout(outer), tiled, Shape{4096}, Shape{8});
  ASSERT_TRUE(i.has_value());
  EXPECT_LAYOUT_EQ(canonicalize(*i), Layout(C(3, 3, 3, "S[512:1]")));
  EXPECT_FALSE(is_tile_inner(Layout(outer), tiled, Shape{4096}, Shape{512}).has_value());
  EXPECT_FALSE(is_tile_outer(compose, tiled, Shape{4096}, Shape{8}).has_value());
  // case_tile_swizzle_layout: outer of the 128B atom tiling
  const Layout sw = Layout(C(3, 3, 3, "S[512:1]"));
  auto o2 = is_tile_inner(sw, Layout(C(3, 3, 3, "S[(64,4,64):(64,4096,1)]")), Shape{64, 256}, Shape{8, 64});
  ASSERT_TRUE(o2.has_value());
  EXPECT_LAYOUT_EQ(Layout(canonicalize(*o2)), Layout(L("S[(8,4):(1,8)]")));
  // case_tile_swizzle_layout4: a bare swizzle is the identity over each shape
  const Layout sw64 = Layout(C(3, 2, 3, "S[256:1]"));
  EXPECT_FALSE(is_tile_inner(sw64, sw64, Shape{64, 256}, Shape{8, 32}).has_value());
  auto o4 = is_tile_inner(sw64, sw64, Shape{64, 32}, Shape{8, 32});
  ASSERT_TRUE(o4.has_value());
  EXPECT_LAYOUT_EQ(Layout(canonicalize(*o4)), Layout(L("S[8:1]")));
  // case_tile_swizzle_layout5: outer of a double tiling
  const Layout twice = tile(tile(sw64, L("S[(8,8):(1,8)]"), Shape{8, 8}, Shape{8, 32}), L("S[(2,2):(1,2)]"),
                            Shape{2, 2}, Shape{64, 256});
  auto o5 = is_tile_inner(sw64, twice, Shape{128, 512}, Shape{8, 32});
  ASSERT_TRUE(o5.has_value());
  EXPECT_LAYOUT_EQ(Layout(canonicalize(*o5)),
                   canonicalize(tile(Layout(L("S[(8,8):(1,8)]")), L("S[(2,2):(1,2)]"), Shape{2, 2}, Shape{8, 8})));
  EXPECT_LAYOUT_EQ(Layout(canonicalize(*o5)), Layout(L("S[(2,8,2,8):(64,1,128,8)]")));
  // different swizzles never match
  EXPECT_FALSE(is_tile_inner(sw64, Layout(C(3, 3, 3, "S[4096:1]")), Shape{64, 64}, Shape{8, 32}).has_value());
}

}  // namespace
}  // namespace tirx
