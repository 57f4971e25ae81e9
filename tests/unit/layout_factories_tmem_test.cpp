// tmem_datapath_layout / default_tmem_layout / tmem_mma_operand_layout: facts from TVM
// tests/python/tirx/operator/tile_primitive/cuda/copy_async/test_tcgen05_ldst.py
// (test_tmem_datapath_layout_*, test_datapath_B_layout_factories_reject_invalid_inputs,
// test_default_tmem_layout_M128_matches_datapath_D), tests/python/tirx/test_layout.py
// (test_tmem_mma_operand_layout_grouped_d), the seed PR (Layout F sub_slab) and spec (g).
// Mappings are also checked against the PTX ISA 9.1 §9.7.16.10.5 data-path formulas written
// independently here (spec ptx_semantics.md §2).
#include <gtest/gtest.h>

#include <set>

#include "layout_algebra_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx {
namespace {

using test::L;

struct LaneCol {
  std::int64_t lane, col;
};

LaneCol at(const TileLayout& l, std::int64_t r, std::int64_t c, std::int64_t cols) {
  const std::int64_t coord[] = {r, c}, shape[] = {l.size() / cols, cols};
  const Coord p = l.apply(coord, shape);
  return {p.get(AxisId::TLane), p.get(AxisId::TCol)};
}

void expect_error(auto&& fn, std::string_view what) {
  try {
    fn();
    ADD_FAILURE() << "expected an InputError mentioning '" << what << "'";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "layout.well-formed");
    EXPECT_NE(e.message().find(what), std::string::npos) << e.message();
  }
}

TEST(TmemDatapath, ExactLayouts) {
  EXPECT_LAYOUT_EQ(Layout(tmem_datapath_layout("D", 128, 32)), Layout(L("S[(128,32):(1@TLane,1@TCol)]")));
  EXPECT_LAYOUT_EQ(Layout(tmem_datapath_layout("A", 128, 64)), Layout(L("S[(128,64):(1@TLane,1@TCol)]")));
  EXPECT_LAYOUT_EQ(Layout(tmem_datapath_layout("F", 64, 32)), Layout(L("S[(4,16,32):(32@TLane,1@TLane,1@TCol)]")));
  EXPECT_LAYOUT_EQ(Layout(tmem_datapath_layout("F", 64, 32, 1)),
                   Layout(L("S[(4,16,32):(32@TLane,1@TLane,1@TCol)] + 16@TLane")));
  EXPECT_LAYOUT_EQ(Layout(tmem_datapath_layout("C", 64, 8, 1)),
                   Layout(L("S[(4,16,8):(32@TLane,1@TLane,1@TCol)] + 16@TLane")));
  EXPECT_LAYOUT_EQ(Layout(tmem_datapath_layout("B", 64, 128)), Layout(L("S[(64,2,64):(1@TLane,64@TLane,1@TCol)]")));
  EXPECT_LAYOUT_EQ(Layout(tmem_datapath_layout("E", 64, 256)), Layout(L("S[(64,2,128):(1@TLane,64@TLane,1@TCol)]")));
  EXPECT_LAYOUT_EQ(Layout(tmem_datapath_layout("G", 32, 128)), Layout(L("S[(32,4,32):(1@TLane,32@TLane,1@TCol)]")));
  // "All of these are already canonical" (spec (g)).
  for (const char* dp : {"A", "B", "C", "D", "E", "F", "G"}) {
    const std::int64_t rows = (*dp == 'A' || *dp == 'D') ? 128 : (*dp == 'G' ? 32 : 64);
    const TileLayout l = tmem_datapath_layout(dp, rows, 64);
    EXPECT_EQ(canonicalize(l), l) << dp;
  }
}

TEST(TmemDatapath, TvmMappingFacts) {
  // test_tmem_datapath_layout_F_row_to_lane_mapping[0] / [1]
  const TileLayout f0 = tmem_datapath_layout("F", 64, 32, 0), f1 = tmem_datapath_layout("F", 64, 32, 1);
  EXPECT_EQ(at(f0, 0, 7, 32).lane, 0);
  EXPECT_EQ(at(f0, 15, 7, 32).lane, 15);
  EXPECT_EQ(at(f0, 16, 7, 32).lane, 32);
  EXPECT_EQ(at(f0, 16, 7, 32).col, 7);
  EXPECT_EQ(at(f0, 17, 7, 32).lane, 33);  // spec (g)
  EXPECT_EQ(at(f1, 0, 7, 32).lane, 16);
  EXPECT_EQ(at(f1, 15, 7, 32).lane, 31);
  EXPECT_EQ(at(f1, 16, 7, 32).lane, 48);
  EXPECT_EQ(at(f1, 17, 7, 32).lane, 49);
  for (std::int64_t r = 0; r < 64; ++r)
    for (std::int64_t c : {0, 1, 7, 16, 31}) {
      EXPECT_EQ(at(f1, r, c, 32).lane, (r / 16) * 32 + 16 + r % 16);
      EXPECT_EQ(at(f1, r, c, 32).col, c);
    }
  // spec (g): per-iter apply form
  const std::int64_t digits[] = {1, 1, 5};
  EXPECT_EQ(f1.apply_iters(digits).get(AxisId::TLane), 49);
  EXPECT_EQ(f1.apply_iters(digits).get(AxisId::TCol), 5);
  // test_tmem_datapath_layout_B_col_split_mapping
  const TileLayout b = tmem_datapath_layout("B", 64, 128);
  EXPECT_EQ(at(b, 0, 0, 128).lane, 0);
  EXPECT_EQ(at(b, 0, 0, 128).col, 0);
  EXPECT_EQ(at(b, 1, 63, 128).lane, 1);
  EXPECT_EQ(at(b, 1, 63, 128).col, 63);
  EXPECT_EQ(at(b, 63, 127, 128).lane, 127);
  EXPECT_EQ(at(b, 63, 127, 128).col, 63);
  EXPECT_EQ(at(b, 31, 64, 128).lane, 95);  // spec (g)
  EXPECT_EQ(at(b, 31, 64, 128).col, 0);
  // spec (g): G(32,128) (5,70) -> (69, 6)
  EXPECT_EQ(at(tmem_datapath_layout("G", 32, 128), 5, 70, 128).lane, 69);
  EXPECT_EQ(at(tmem_datapath_layout("G", 32, 128), 5, 70, 128).col, 6);
  // test_tmem_datapath_layout_D_row_to_lane_mapping
  const TileLayout d = tmem_datapath_layout("D", 128, 32);
  for (std::int64_t r : {0, 1, 15, 16, 31, 32, 63, 64, 127}) EXPECT_EQ(at(d, r, 0, 32).lane, r);
  // span("TLane") of F is 112 (128 with sub_slab 1), span("TCol") = cols
  EXPECT_EQ(f0.span(AxisId::TLane), 112);
  EXPECT_EQ(f1.span(AxisId::TLane), 128);
  EXPECT_EQ(f0.span(AxisId::TCol), 32);
}

// Required: every logical row, both selectors, lands on exactly the documented half-slab lanes.
TEST(TmemDatapath, LayoutFEveryRowBothSubSlabs) {
  for (int s : {0, 1}) {
    const TileLayout f = tmem_datapath_layout("F", 64, 8, s);
    std::set<std::int64_t> lanes;
    for (std::int64_t r = 0; r < 64; ++r) {
      const std::int64_t lane = at(f, r, 3, 8).lane;
      EXPECT_EQ(lane, 32 * (r / 16) + 16 * s + r % 16) << "row " << r << " sub_slab " << s;
      EXPECT_EQ(at(f, r, 3, 8).col, 3);
      lanes.insert(lane);
    }
    std::set<std::int64_t> want;
    for (std::int64_t w = 0; w < 4; ++w)
      for (std::int64_t i = 0; i < 16; ++i) want.insert(32 * w + 16 * s + i);
    EXPECT_EQ(lanes, want) << "sub_slab " << s;  // {0..15,32..47,64..79,96..111} / {16..31,...}
    EXPECT_EQ(lanes.size(), 64u);                // one row per lane
  }
}

// The data-path mappings of PTX ISA 9.1 §9.7.16.10.5 (via CUTLASS tmem_frg), written out here.
TEST(TmemDatapath, MatchesPtxDataPathFormulas) {
  const std::int64_t N = 48;
  for (std::int64_t m = 0; m < 128; ++m)
    for (std::int64_t n = 0; n < N; ++n) {
      const LaneCol d = at(tmem_datapath_layout("D", 128, N), m, n, N);
      EXPECT_TRUE(d.lane == m && d.col == n);
    }
  for (std::int64_t m = 0; m < 64; ++m)
    for (std::int64_t n = 0; n < N; ++n) {
      for (const char* dp : {"B", "E"}) {
        const LaneCol e = at(tmem_datapath_layout(dp, 64, N), m, n, N);
        EXPECT_EQ(e.lane, m + 64 * (n / (N / 2))) << dp;
        EXPECT_EQ(e.col, n % (N / 2)) << dp;
      }
      for (std::int64_t l0 : {0, 16}) {
        const LaneCol f = at(tmem_datapath_layout("F", 64, N, static_cast<int>(l0 / 16)), m, n, N);
        EXPECT_EQ(f.lane, l0 + m % 16 + 32 * (m / 16));
        EXPECT_EQ(f.col, n);
      }
    }
  for (std::int64_t m = 0; m < 32; ++m)
    for (std::int64_t n = 0; n < N; ++n) {
      const LaneCol g = at(tmem_datapath_layout("G", 32, N), m, n, N);
      EXPECT_EQ(g.lane, m + 32 * (n / (N / 4)));
      EXPECT_EQ(g.col, n % (N / 4));
    }
}

TEST(TmemDatapath, RejectsInvalidArguments) {
  // test_tmem_datapath_layout_rejects_invalid_sub_slab
  expect_error([] { tmem_datapath_layout("F", 64, 8, 2); }, "sub_slab must be 0 or 1");
  expect_error([] { tmem_datapath_layout("F", 64, 8, -1); }, "sub_slab must be 0 or 1");
  expect_error([] { tmem_datapath_layout("D", 128, 8, 1); }, "sub_slab must be 0");
  for (const char* dp : {"A", "B", "E"}) {
    const std::int64_t rows = *dp == 'A' ? 128 : 64;
    expect_error([&] { tmem_datapath_layout(dp, rows, 8, 1); }, "sub_slab must be 0");
  }
  expect_error([] { tmem_datapath_layout("G", 32, 8, 1); }, "sub_slab must be 0");
  // test_datapath_B_layout_factories_reject_invalid_inputs
  expect_error([] { tmem_datapath_layout("B", 128, 32); }, "expects rows=64");
  expect_error([] { tmem_datapath_layout("B", 64, 31); }, "expects even cols");
  expect_error([] { tmem_datapath_layout("E", 64, 7); }, "expects even cols");
  expect_error([] { tmem_datapath_layout("G", 32, 30); }, "divisible by 4");
  expect_error([] { tmem_datapath_layout("F", 128, 32); }, "expects rows=64");
  expect_error([] { tmem_datapath_layout("D", 64, 32); }, "expects rows=128");
  expect_error([] { tmem_datapath_layout("H", 64, 32); }, "unknown datapath");
  expect_error([] { tmem_datapath_layout("DF", 128, 32); }, "unknown datapath");
  expect_error([] { tmem_datapath_layout("D", 128, 0); }, "cols must be >= 1");
}

TEST(TmemDefault, M128IsLayoutD) {
  // test_default_tmem_layout_M128_matches_datapath_D (structural equality)
  for (std::int64_t cols : {32, 64, 256, 512}) EXPECT_EQ(default_tmem_layout(128, cols), tmem_datapath_layout("D", 128, cols));
  EXPECT_LAYOUT_EQ(Layout(default_tmem_layout(64, 32)), Layout(L("S[(64,32):(1@TLane,1@TCol)]")));
  EXPECT_THROW(default_tmem_layout(0, 32), InputError);
}

TEST(TmemOperand, TvmFacts) {
  const DType f32 = DType::parse("float32");
  auto op = [&](const char* operand, Shape shape, std::int64_t M, int cta, bool ws = false, Shape group = {}) {
    TmemOperandArgs a;
    a.M = M;
    a.cta_group = cta;
    a.ws = ws;
    a.group = group;
    return tmem_mma_operand_layout(operand, shape, f32, a);
  };
  // test_tmem_mma_operand_layout_grouped_d
  EXPECT_LAYOUT_EQ(Layout(op("A", {64, 64}, 64, 1)), Layout(L("S[(64,64):(1@TLane,1@TCol)]")));
  const TileLayout grouped = L("S[(64,2,2,128):(1@TLane,128@TCol,64@TLane,1@TCol)]");
  EXPECT_LAYOUT_EQ(Layout(op("D", {64, 512}, 64, 1, true, {2, 2, 128})), Layout(grouped));
  EXPECT_LAYOUT_EQ(Layout(op("D", {64, 512}, 128, 2, false, {2, 2, 128})), Layout(grouped));
  const std::int64_t c[] = {3, 300}, s[] = {64, 512};
  EXPECT_EQ(grouped.apply(c, s).get(AxisId::TLane), 3);
  EXPECT_EQ(grouped.apply(c, s).get(AxisId::TCol), 172);
  expect_error([&] { op("D", {128, 256}, 128, 1, true); }, "ws=True only valid");
  expect_error([&] { op("D", {64, 512}, 64, 1, true, {4, 128}); }, "group must be (s,2,n)");
  // spec (g): letter resolution and shapes
  EXPECT_EQ(op("D", {128, 256}, 128, 1), tmem_datapath_layout("D", 128, 256));
  EXPECT_EQ(op("D", {64, 256}, 64, 1), tmem_datapath_layout("F", 64, 256));
  EXPECT_EQ(op("D", {64, 256}, 64, 1, true), tmem_datapath_layout("E", 64, 256));
  EXPECT_EQ(op("D", {128, 256}, 256, 2), tmem_datapath_layout("A", 128, 256));
  EXPECT_EQ(op("D", {64, 256}, 128, 2), tmem_datapath_layout("B", 64, 256));
  // the batched form canonicalizes: (2,64@TLane),(64,1@TLane) fuse into (128,1@TLane)
  EXPECT_LAYOUT_EQ(Layout(op("D", {2, 64, 128}, 128, 2)), Layout(L("S[(128,128):(1@TLane,1@TCol)]")));
  EXPECT_LAYOUT_EQ(Layout(op("D", {64, 2, 128}, 128, 2)), Layout(L("S[(64,2,128):(1@TLane,64@TLane,1@TCol)]")));
  EXPECT_LAYOUT_EQ(Layout(op("D", {64, 2, 2, 128}, 128, 2)), Layout(grouped));
  EXPECT_LAYOUT_EQ(Layout(op("A", {64, 32}, 128, 2)), Layout(L("S[(64,32):(1@TLane,1@TCol)] + R[2:64@TLane]")));
  EXPECT_LAYOUT_EQ(Layout(op("A", {2, 64, 32}, 64, 1, true)), Layout(L("S[(128,32):(1@TLane,1@TCol)]")));
  expect_error([&] { op("A", {64, 32}, 64, 1, true); }, "datapath E");
  expect_error([&] { op("D", {64, 256}, 128, 1); }, "expects 128 rows per CTA");
  expect_error([&] { op("D", {128, 256}, 32, 1); }, "no datapath");
  expect_error([&] { op("B", {128, 256}, 128, 1); }, "operand must be 'A' or 'D'");
  expect_error([&] { op("D", {128, 2, 128}, 128, 1); }, "unsupported accumulator shape");
  expect_error([&] { op("D", {64, 512}, 64, 1, true, {2, 2, 64}); }, "does not multiply");
  TmemOperandArgs sparse;
  sparse.sparse = true;
  expect_error([&] { tmem_mma_operand_layout("D", Shape{128, 64}, f32, sparse); }, "sparse");
}

}  // namespace
}  // namespace tirx
