// The hardware rules the kernel TMEM checks call (src/hw): the tcgen05.ld/st lane-field model,
// the data path of an MMA, A-in-TMEM cells, the block-scaling rules, tcgen05.cp byte maps.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/tcgen05_cp.hpp"
#include "tirx_verify/hw/tcgen05_ldst.hpp"
#include "tirx_verify/hw/tcgen05_mma.hpp"

namespace tirx::hw {
namespace {

using test::sm100;
using test::throws_check;

TEST(LaneFieldModel, HeaderTable) {
  // warp 5 (w = 1): warp-relative 0 and absolute 48 reach the same lanes.
  LaneFieldAccess a = resolve_lane_field(sm100(), LdStShape::k16x256b, 0, 1);
  EXPECT_EQ(a.first_lane, 32);
  EXPECT_EQ(a.named_subpartition, 0);
  EXPECT_FALSE(a.names_other_subpartition);
  EXPECT_FALSE(a.crosses);
  a = resolve_lane_field(sm100(), LdStShape::k16x256b, 48, 1);
  EXPECT_EQ(a.first_lane, 48);
  EXPECT_EQ(a.named_subpartition, 1);
  EXPECT_FALSE(a.names_other_subpartition);
  // 64 names sub-partition 2: a warning case, still warp 1's lanes 32..47.
  a = resolve_lane_field(sm100(), LdStShape::k16x256b, 64, 1);
  EXPECT_EQ(a.first_lane, 32);
  EXPECT_EQ(a.named_subpartition, 2);
  EXPECT_TRUE(a.names_other_subpartition);
  // 24 + 16 lanes crosses into the next sub-partition; .32x32b at 16 too.
  a = resolve_lane_field(sm100(), LdStShape::k16x64b, 24, 0);
  EXPECT_EQ(a.first_lane, 24);
  EXPECT_TRUE(a.crosses);
  EXPECT_TRUE(resolve_lane_field(sm100(), LdStShape::k32x32b, 16, 2).crosses);
  EXPECT_FALSE(resolve_lane_field(sm100(), LdStShape::k32x32b, 64, 2).crosses);
  EXPECT_EQ(resolve_lane_field(sm100(), LdStShape::k32x32b, 64, 2).first_lane, 64);
  EXPECT_TRUE(resolve_lane_field(sm100(), LdStShape::k32x32b, 128, 0).outside);
  EXPECT_TRUE(throws_check([] { resolve_lane_field(sm100(), LdStShape::k32x32b, 0, 4); }, "tmem.address"));
  EXPECT_TRUE(throws_check([] { resolve_lane_field(test::sm90(), LdStShape::k32x32b, 0, 0); }, "target.feature"));
}

TEST(MmaDatapath, TableOfPtx) {
  EXPECT_EQ(mma_datapath(128, 1, false), Datapath::D);
  EXPECT_EQ(mma_datapath(128, 1, true), Datapath::D);
  EXPECT_EQ(mma_datapath(64, 1, false), Datapath::F);
  EXPECT_EQ(mma_datapath(64, 1, true), Datapath::E);
  EXPECT_EQ(mma_datapath(32, 1, true), Datapath::G);
  EXPECT_EQ(mma_datapath(128, 2, false), Datapath::B);
  EXPECT_EQ(mma_datapath(128, 2, false, true), Datapath::C);
  EXPECT_EQ(mma_datapath(256, 2, false), Datapath::A);
  EXPECT_TRUE(throws_check([] { mma_datapath(32, 1, false); }, "tcgen05.shape", {"M = 32"}));
  EXPECT_TRUE(throws_check([] { mma_datapath(256, 2, true); }, "tcgen05.shape", {".ws"}));
  EXPECT_EQ(datapath_rows_per_cta(Datapath::A), 128);
  EXPECT_EQ(datapath_rows_per_cta(Datapath::B), 64);
  EXPECT_EQ(datapath_rows_per_cta(Datapath::F), 64);
  EXPECT_EQ(datapath_rows_per_cta(Datapath::G), 32);
}

TEST(MmaAOperand, CellsFollowTheAccumulatorLanes) {
  using V = std::vector<std::tuple<int, int, int>>;
  auto cells = [](Datapath d, int m, int k, int bits, int lane, int col) {
    V v;
    for (const auto& c : a_operand_cells(sm100(), d, m, k, bits, TmemAddress::make(lane, col)))
      v.emplace_back(c.lane, c.col, c.bit);
    return v;
  };
  // Layout D, fp16: row 5 at lane 5, K 3 at column 1 (two per column), bits 16..31.
  EXPECT_EQ(cells(Datapath::D, 5, 3, 16, 0, 64), (V{{5, 65, 16}}));
  // Layout F upper half-slab: row 17 -> lane 16 + 1 + 32 = 49; tf32 K 7 at column 7.
  EXPECT_EQ(cells(Datapath::F, 17, 7, 32, 16, 0), (V{{49, 7, 0}}));
  // Layout E (.ws M=64): both 64-lane banks.
  EXPECT_EQ(cells(Datapath::E, 3, 0, 16, 0, 8), (V{{3, 8, 0}, {67, 8, 0}}));
  EXPECT_TRUE(throws_check([] { a_operand_cells(sm100(), Datapath::G, 0, 0, 16, TmemAddress{}); }, "tmem.datapath"));
  EXPECT_TRUE(throws_check([] { a_operand_cells(sm100(), Datapath::D, 0, 0, 16, TmemAddress::make(16, 0)); },
                           "tmem.datapath", {"lane 0"}));
  EXPECT_TRUE(throws_check([] { a_operand_cells(sm100(), Datapath::F, 64, 0, 16, TmemAddress{}); }, "tcgen05.shape"));
}

TEST(BlockScaling, ScaleVecKindKAndDtype) {
  EXPECT_NO_THROW(validate_block_scaling("mxf8f6f4", ScaleVec::k1X, 32, "float8_e8m0fnu"));
  EXPECT_NO_THROW(validate_block_scaling("mxf4", ScaleVec::k2X, 64, "float8_e8m0fnu"));
  EXPECT_NO_THROW(validate_block_scaling("mxf4nvf4", ScaleVec::k4X, 64, "float8_e4m3fn"));
  EXPECT_NO_THROW(validate_block_scaling("mxf4nvf4", ScaleVec::k2X, 64, "float8_e8m0fnu"));
  EXPECT_TRUE(throws_check([] { validate_block_scaling("mxf8f6f4", ScaleVec::k2X, 32, ""); }, "tcgen05.shape",
                           {"kind::mxf8f6f4 does not take scale_vec::2X"}));
  EXPECT_TRUE(throws_check([] { validate_block_scaling("mxf4nvf4", ScaleVec::k2X, 64, "float8_e4m3fn"); },
                           "tcgen05.shape", {"scale_vec::2X takes UE8M0"}));
  EXPECT_TRUE(throws_check([] { validate_block_scaling("mxf4", ScaleVec::k2X, 32, ""); }, "tcgen05.shape",
                           {"K = 64, not 32"}));
  EXPECT_TRUE(throws_check([] { validate_block_scaling("f16", ScaleVec::k1X, 16, ""); }, "tcgen05.shape"));
  EXPECT_EQ(scale_vec_scales(ScaleVec::k4X), 4);
  EXPECT_EQ(mma_kind_k("tf32"), 8);
  EXPECT_EQ(mma_kind_k("mxf4nvf4"), 64);
  EXPECT_EQ(sf_datapath(128, 1, false), SfDatapath::k4x1);
  EXPECT_EQ(sf_datapath(256, 2, true), SfDatapath::k4x1);
  EXPECT_EQ(sf_datapath(128, 2, true), SfDatapath::k2x2);
  EXPECT_TRUE(throws_check([] { sf_datapath(128, 2, false); }, "tmem.datapath"));
  EXPECT_TRUE(throws_check([] { sf_datapath(64, 1, false); }, "tcgen05.shape"));
}

TEST(Tcgen05CpBytes, SourceAndDestinationOfOneByte) {
  SmemDescriptor d;
  d.start_address = 4096;
  d.sbo = 128;
  // .32x128b.warpx4, no swizzle: row 9 = core-matrix row 1 of the second 8-row group.
  EXPECT_EQ(cp_source_byte(d, 9, 5), 4096u + 128 + 16 + 5);
  using V = std::vector<std::tuple<int, int, int>>;
  V v;
  for (const auto& c : cp_destination_cells(CpShape::k32x128bWarpx4, TmemAddress::make(0, 448), 9, 5))
    v.emplace_back(c.lane, c.col, c.byte);
  EXPECT_EQ(v, (V{{9, 449, 1}, {41, 449, 1}, {73, 449, 1}, {105, 449, 1}}));
  v.clear();
  for (const auto& c : cp_destination_cells(CpShape::k128x128b, TmemAddress::make(0, 0), 100, 15))
    v.emplace_back(c.lane, c.col, c.byte);
  EXPECT_EQ(v, (V{{100, 3, 3}}));
}

TEST(MmaAccumulatorTile, EqualsTheCellByCellForm) {
  for (Datapath d : {Datapath::A, Datapath::B, Datapath::D, Datapath::E, Datapath::F, Datapath::G})
    for (int lane : {0, 16}) {
      if (lane && d != Datapath::F) continue;
      const TmemAddress base = TmemAddress::make(lane, 64);
      const int n = 128, rows = datapath_m(d);
      const auto tile = accumulator_tile(sm100(), d, n, rows, base);
      ASSERT_EQ(tile.size(), static_cast<std::size_t>(rows) * n);
      for (int m = 0; m < rows; ++m)
        for (int c = 0; c < n; ++c) {
          const AccumulatorCell a = accumulator_cell(sm100(), d, n, m, c, base), b = tile[m * n + c];
          ASSERT_TRUE(a.cta == b.cta && a.lane == b.lane && a.col == b.col) << to_char(d) << " " << m << " " << c;
        }
    }
  EXPECT_TRUE(throws_check([] { accumulator_tile(sm100(), Datapath::F, 64, 65, TmemAddress{}); }, "tcgen05.shape"));
  EXPECT_TRUE(throws_check([] { accumulator_tile(sm100(), Datapath::D, 256, 128, TmemAddress::make(0, 300)); },
                           "tmem.address"));
}

}  // namespace
}  // namespace tirx::hw
