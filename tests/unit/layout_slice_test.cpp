// slice(): facts from TVM tests/python/tirx/test_layout.py (test_slice case1..case4,
// case_adds_region_offset_to_base, case_swizzle_slice, case_compose_slice(_2d),
// test_slice_single_shard_skips_defensive_floormod, test_slice_tcgen05_frag_layout_scope_consistent)
// and the spec (e) slice table. TVM's own tests check apply-equivalence over the region; we
// check that and the exact layouts the spec derives.
#include <gtest/gtest.h>

#include "layout_algebra_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {
namespace {

using test::C;
using test::L;
using Region = std::vector<std::pair<std::int64_t, std::int64_t>>;

// Every axis value of two coordinates (absent axes read 0).
void expect_same_point(const Coord& a, const Coord& b, const std::string& where) {
  for (int i = 0; i < kNumAxes; ++i) {
    const Axis ax(static_cast<AxisId>(i));
    EXPECT_EQ(a.get(ax), b.get(ax)) << where << " axis " << ax.name();
  }
}

// TVM's verify_slice: for every point of the region, layout(shape coord) == sliced(region coord).
void verify_slice(const Layout& l, const Shape& shape, const Region& region, const Layout& sliced) {
  Shape rshape;
  std::int64_t n = 1;
  for (auto [b, e] : region) {
    rshape.push_back(e - b);
    n *= e - b;
  }
  for (std::int64_t u = 0; u < n; ++u) {
    std::vector<std::int64_t> rc(region.size()), sc(region.size());
    std::int64_t rest = u;
    for (std::size_t d = region.size(); d-- > 0;) {
      rc[d] = rest % rshape[d];
      rest /= rshape[d];
      sc[d] = region[d].first + rc[d];
    }
    expect_same_point(l.apply(sc, shape), sliced.apply(rc, rshape), "u=" + std::to_string(u));
  }
}

Layout sliced_or_fail(const Layout& l, const Shape& shape, const Region& region) {
  auto s = slice(l, shape, region);
  if (!s) {
    ADD_FAILURE() << "slice returned nullopt";
    return l;
  }
  verify_slice(l, shape, region, *s);
  return *s;
}

TEST(Slice, TvmCases) {
  struct Case {
    const char* layout;
    Shape shape;
    Region region;
    const char* raw;        // the sliced layout as TVM's algorithm builds it
    const char* canonical;  // and canonicalized
  };
  const Case cases[] = {
      // test_slice case1
      {"S[(8,8):(8,1)]", {64}, {{5, 8}}, "S[3:1] + 5", "S[3:1] + 5"},
      // case2 (midpoint wrap)
      {"S[(4,4,4,4):(64,4,16,1)]", {16, 16}, {{2, 3}, {6, 10}}, "S[(1,2,2):(4,14,1)] + 26", "S[(2,2):(14,1)] + 26"},
      // case3
      {"S[(2,8,3,8):(192,8,64,1)]", {16, 24}, {{2, 6}, {4, 12}}, "S[(4,2,4):(8,60,1)] + 20", "S[(4,2,4):(8,60,1)] + 20"},
      // case4
      {"S[(128,2,64):(64,8192,1)]", {128, 128}, {{0, 128}, {32, 96}}, "S[(128,2,32):(64,8160,1)] + 32",
       "S[(128,2,32):(64,8160,1)] + 32"},
      // test_slice_single_shard_skips_defensive_floormod
      {"S[(2,128):(8192,64)]", {256}, {{96, 128}}, "S[32:64] + 6144", "S[32:64] + 6144"},
      // a wrap on a column-major block: elements 1..6 of S[(4,4):(1,4)]
      {"S[(4,4):(1,4)]", {16}, {{1, 7}}, "S[(2,3):(-3,4)] + 4", "S[(2,3):(-3,4)] + 4"},
      // an extent-1 dimension keeps a unit iter (TVM's Group gives it one; SlicePerGroup keeps
      // a single-iter block whole)
      {"S[(1,8):(8,1)]", {1, 8}, {{0, 1}, {2, 5}}, "S[(1,3):(1,1)] + 2", "S[3:1] + 2"},
      // a size-1 slice keeps its unit iter on its axis (TLane stays in the layout)
      {"S[(4,8):(1@TLane,1)]", {4, 8}, {{1, 2}, {0, 8}}, "S[(1,8):(1@TLane,1)] + 1@TLane + 0",
       "S[8:1] + 1@TLane"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.layout);
    const Layout s = sliced_or_fail(Layout(L(c.layout)), c.shape, c.region);
    EXPECT_LAYOUT_EQ(s, Layout(L(c.raw)));
    EXPECT_LAYOUT_EQ(canonicalize(s), Layout(L(c.canonical)));
  }
}

TEST(Slice, RawResultKeepsZeroOffsets) {
  // A block whose start digit is 0 still records its (zero) offset, as TVM's slice does.
  const Layout s = sliced_or_fail(Layout(L("S[(8,8):(8,1)]")), {8, 8}, {{0, 8}, {0, 4}});
  EXPECT_LAYOUT_EQ(s, Layout(L("S[(8,4):(8,1)] + 0")));
  EXPECT_LAYOUT_EQ(canonicalize(s), Layout(L("S[(8,4):(8,1)]")));
}

TEST(Slice, OffsetsAddToTheBaseOffset) {
  // test_slice case_adds_region_offset_to_base with warp_offset = w: offset w*64 + 128.
  for (std::int64_t w : {0, 1, 3, 7}) {
    TileLayout base = L("S[(4,64)]");
    base.offset.set(AxisId::m, w * 64);
    const Layout s = sliced_or_fail(Layout(base), {4, 64}, {{2, 4}, {0, 64}});
    EXPECT_EQ(canonicalize(s).tile().offset.get(AxisId::m), w * 64 + 128) << w;
  }
  // spec (e): a pipeline stage slice of S[(3,128,128):(16384,128,1)] has offset stage*16384.
  for (std::int64_t stage = 0; stage < 3; ++stage) {
    const Layout s = sliced_or_fail(Layout(L("S[(3,128,128):(16384,128,1)]")), {3, 128, 128},
                                    {{stage, stage + 1}, {0, 128}, {0, 128}});
    TileLayout expected = L("S[16384:1]");
    if (stage != 0) expected.offset.set(AxisId::m, stage * 16384);
    EXPECT_LAYOUT_EQ(canonicalize(s), Layout(expected));
  }
}

TEST(Slice, LayoutFUpperHalfColumnWindow) {
  // spec (e): tmem_datapath_layout("F",64,64,1) sliced to columns [16,48).
  const Layout f = Layout(tmem_datapath_layout("F", 64, 64, 1));
  const Layout s = sliced_or_fail(f, {64, 64}, {{0, 64}, {16, 48}});
  EXPECT_LAYOUT_EQ(canonicalize(s), Layout(L("S[(4,16,32):(32@TLane,1@TLane,1@TCol)] + 16@TCol + 16@TLane")));
}

TEST(Slice, ComposeLayouts) {
  // case_swizzle_slice: a bare swizzle is an identity tile over the slice shape.
  const Layout sw = Layout(C(3, 3, 3, "S[512:1]"));
  EXPECT_LAYOUT_EQ(sliced_or_fail(sw, {512}, {{64, 128}}), Layout(C(3, 3, 3, "S[64:1] + 64")));
  // case_compose_slice
  const Layout comp = Layout(C(3, 3, 3, "S[(8,64):(64,1)]"));
  EXPECT_LAYOUT_EQ(sliced_or_fail(comp, {512}, {{64, 128}}), Layout(C(3, 3, 3, "S[64:1] + 64")));
  // case_compose_slice_2d
  EXPECT_LAYOUT_EQ(canonicalize(sliced_or_fail(comp, {8, 64}, {{2, 4}, {0, 64}})),
                   Layout(C(3, 3, 3, "S[128:1] + 128")));
  EXPECT_LAYOUT_EQ(sliced_or_fail(comp, {8, 64}, {{2, 4}, {0, 64}}), Layout(C(3, 3, 3, "S[(2,64):(64,1)] + 128 + 0")));
  // test_cuda_copy_extract_swizzle_tile_simplifies_constant_region_extents: extents [64]
  const auto ext = slice(sw, Shape{512}, Region{{0, 64}});
  ASSERT_TRUE(ext.has_value());
  ASSERT_EQ(ext->tile().shard.size(), 1u);
  EXPECT_EQ(ext->tile().shard[0].extent, 64);
  // The swizzle acts on the absolute address: a 64B-swizzled fp16 operand, rows 8..15.
  const Layout op = mma_shared_layout(DType::parse("float16"), SwizzleMode::k64B, std::vector<std::int64_t>{64, 64});
  sliced_or_fail(op, {64, 64}, {{8, 16}, {0, 64}});
  sliced_or_fail(op, {64, 64}, {{0, 64}, {32, 64}});
}

TEST(Slice, TcgenFragmentUnderCudaKeepsOneThreadAxis) {
  // test_slice_tcgen05_frag_layout_scope_consistent: after slicing and canonicalizing under
  // the CUDA target only tid_in_wg remains, with extents 4, 8, 4 and strides 32, 4, 1.
  const TileLayout frag = L("S[(4,2,2,8,4,4,2):(1@wid_in_wg,16,2,4@laneid,4,1@laneid,1)]");
  const CanonicalizeOptions cuda{true};
  const auto s = slice(Layout(frag), Shape{128, 32}, Region{{0, 128}, {0, 32}}, cuda);
  ASSERT_TRUE(s.has_value());
  const TileLayout c = canonicalize(s->tile(), cuda);
  std::vector<std::pair<std::int64_t, std::int64_t>> thread_iters;  // (extent, stride)
  for (const Iter& it : c.shard) {
    if (!it.axis.is_thread()) continue;
    EXPECT_EQ(it.axis, Axis(AxisId::tid_in_wg));
    thread_iters.emplace_back(it.extent, it.stride);
  }
  EXPECT_EQ(thread_iters, (std::vector<std::pair<std::int64_t, std::int64_t>>{{4, 32}, {8, 4}, {4, 1}}));
  // The slice addresses the same threads as the (fused) fragment it came from.
  verify_slice(Layout(canonicalize(frag, cuda)), {128, 32}, {{0, 128}, {0, 32}}, *s);
}

TEST(Slice, NotRepresentableGivesNullopt) {
  // Elements 1..9 of a column-major 4x4 block need more than one wrap.
  EXPECT_FALSE(slice(Layout(L("S[(4,4):(1,4)]")), Shape{16}, Region{{1, 10}}).has_value());
  // The wrap needs the next-outer iter on the same axis.
  EXPECT_FALSE(slice(Layout(L("S[(4,4):(1@TLane,4)]")), Shape{16}, Region{{1, 7}}).has_value());
}

TEST(Slice, Errors) {
  const Layout l = Layout(L("S[(8,8):(8,1)]"));
  EXPECT_THROW(slice(l, Shape{8, 8}, Region{{0, 8}}), InputError);       // rank mismatch
  EXPECT_THROW(slice(l, Shape{8, 8}, Region{{0, 9}, {0, 8}}), InputError);  // outside the shape
  EXPECT_THROW(slice(l, Shape{8, 8}, Region{{3, 3}, {0, 8}}), InputError);  // empty
  EXPECT_THROW(slice(l, Shape{8, 8}, Region{{-1, 2}, {0, 8}}), InputError);
  EXPECT_THROW(slice(l, Shape{3, 8}, Region{{0, 3}, {0, 8}}), InputError);  // not groupable (24 != 64)
  try {
    slice(l, Shape{8, 8}, Region{{0, 9}, {0, 8}});
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "layout.well-formed");
    EXPECT_NE(e.message().find("slice:"), std::string::npos);
  }
}

}  // namespace
}  // namespace tirx
