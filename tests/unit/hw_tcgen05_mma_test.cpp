// tcgen05.mma accumulator placement (data-path layouts A, B, D, E, F, G; C rejected) and the
// block-scaled scale-factor placement. Spec ptx_semantics §2, §5; example cells from
// tirx_semantics (g).
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/tcgen05_mma.hpp"

namespace tirx::hw {
namespace {
using test::sm100;
using test::sm90;
using test::throws_check;

AccumulatorCell cell(Datapath d, int N, int m, int n, int L0 = 0, int C0 = 0) {
  return accumulator_cell(sm100(), d, N, m, n, TmemAddress::make(L0, C0));
}
std::tuple<int, int, int> T(const AccumulatorCell& c) { return {c.cta, c.lane, c.col}; }

TEST(Tcgen05Mma, LayoutDIsTheIdentity) {
  EXPECT_EQ(T(cell(Datapath::D, 256, 0, 0)), std::make_tuple(0, 0, 0));
  EXPECT_EQ(T(cell(Datapath::D, 256, 127, 255, 0, 256)), std::make_tuple(0, 127, 511));
  EXPECT_EQ(T(cell(Datapath::D, 64, 45, 17, 0, 64)), std::make_tuple(0, 45, 81));
}

TEST(Tcgen05Mma, LayoutFLowerAndUpperHalfSlabs) {
  // sub_slab 0 (lane alignment 0): rows 0-15 -> lanes 0-15, 16-31 -> 32-47, ... 48-63 -> 96-111.
  EXPECT_EQ(cell(Datapath::F, 32, 0, 0).lane, 0);
  EXPECT_EQ(cell(Datapath::F, 32, 16, 0).lane, 32);
  EXPECT_EQ(cell(Datapath::F, 32, 63, 0).lane, 111);
  EXPECT_EQ(T(cell(Datapath::F, 32, 17, 7)), std::make_tuple(0, 33, 7));  // tirx: F apply(17,7) -> (33, 7)
  // sub_slab 1 (lane alignment 16): row 0 -> lane 16; (17,7) -> (49, 7).
  EXPECT_EQ(cell(Datapath::F, 32, 0, 0, 16).lane, 16);
  EXPECT_EQ(T(cell(Datapath::F, 32, 17, 7, 16)), std::make_tuple(0, 49, 7));
  EXPECT_EQ(cell(Datapath::F, 32, 63, 0, 16).lane, 127);
  // The two halves of the data path are disjoint and together cover every lane once.
  std::set<int> lanes;
  for (int L0 : {0, 16})
    for (int m = 0; m < 64; ++m) EXPECT_TRUE(lanes.insert(cell(Datapath::F, 8, m, 0, L0).lane).second);
  EXPECT_EQ(lanes.size(), 128u);
}

TEST(Tcgen05Mma, LayoutsBAndEAndG) {
  // B(64,128) per CTA: (31,64) -> (95,0), (63,127) -> (127,63); rows 64..127 in the odd CTA.
  EXPECT_EQ(T(cell(Datapath::B, 128, 31, 64)), std::make_tuple(0, 95, 0));
  EXPECT_EQ(T(cell(Datapath::B, 128, 63, 127)), std::make_tuple(0, 127, 63));
  EXPECT_EQ(T(cell(Datapath::B, 128, 64 + 31, 64)), std::make_tuple(1, 95, 0));
  EXPECT_EQ(T(cell(Datapath::B, 128, 5, 10)), std::make_tuple(0, 5, 10));
  // E (M=64 .ws) uses the same 2x2 formula.
  EXPECT_EQ(T(cell(Datapath::E, 128, 31, 64)), std::make_tuple(0, 95, 0));
  EXPECT_EQ(T(cell(Datapath::E, 256, 0, 255)), std::make_tuple(0, 64, 127));
  // G(32,128): (5,70) -> (69, 6).
  EXPECT_EQ(T(cell(Datapath::G, 128, 5, 70)), std::make_tuple(0, 69, 6));
  EXPECT_EQ(T(cell(Datapath::G, 64, 31, 63)), std::make_tuple(0, 127, 15));
}

TEST(Tcgen05Mma, LayoutAIsLayoutDPerCta) {
  EXPECT_EQ(T(cell(Datapath::A, 256, 0, 3)), std::make_tuple(0, 0, 3));
  EXPECT_EQ(T(cell(Datapath::A, 256, 127, 3)), std::make_tuple(0, 127, 3));
  EXPECT_EQ(T(cell(Datapath::A, 256, 200, 3)), std::make_tuple(1, 72, 3));
}

TEST(Tcgen05Mma, EveryLayoutIsInjective) {
  for (Datapath d : {Datapath::A, Datapath::B, Datapath::D, Datapath::E, Datapath::F, Datapath::G})
    for (int N : {64, 128, 256}) {
      std::set<std::tuple<int, int, int>> seen;
      for (int m = 0; m < datapath_m(d); ++m)
        for (int n = 0; n < N; ++n) ASSERT_TRUE(seen.insert(T(cell(d, N, m, n))).second) << to_char(d) << N;
    }
}

TEST(Tcgen05Mma, LayoutCIsRejectedAsUnresolved) {
  EXPECT_TRUE(throws_check([] { cell(Datapath::C, 128, 0, 0); }, "tmem.datapath",
                           {"unresolved", "PTX and CUTLASS disagree", "Layout C"}));
}

TEST(Tcgen05Mma, LaneAlignmentNAndRangeErrors) {
  EXPECT_TRUE(throws_check([] { cell(Datapath::F, 32, 0, 0, 8); }, "tmem.datapath", {"lane 0 or 16"}));
  EXPECT_TRUE(throws_check([] { cell(Datapath::D, 32, 0, 0, 16); }, "tmem.datapath", {"lane 0, not lane 16"}));
  // PTX Table 39 (CUTLASS's SM100 UMMA static_asserts): M=64 N % 8, M=128 N % 16, M=256 (::2)
  // N % 16, M=128 (::2) N % 32.
  EXPECT_TRUE(throws_check([] { cell(Datapath::F, 12, 0, 0); }, "tcgen05.shape", {"multiple of 8"}));
  EXPECT_NO_THROW(cell(Datapath::F, 24, 0, 0));
  EXPECT_TRUE(throws_check([] { cell(Datapath::D, 24, 0, 0); }, "tcgen05.shape", {"multiple of 16 in [16, 256]"}));
  EXPECT_TRUE(throws_check([] { cell(Datapath::D, 8, 0, 0); }, "tcgen05.shape", {"multiple of 16"}));
  EXPECT_NO_THROW(cell(Datapath::D, 240, 0, 0));
  EXPECT_TRUE(throws_check([] { cell(Datapath::A, 24, 0, 0); }, "tcgen05.shape", {"multiple of 16"}));
  EXPECT_TRUE(throws_check([] { cell(Datapath::B, 48, 0, 0); }, "tcgen05.shape", {"multiple of 32 in [32, 256]"}));
  EXPECT_NO_THROW(cell(Datapath::B, 96, 0, 0));
  EXPECT_TRUE(throws_check([] { cell(Datapath::E, 96, 0, 0); }, "tcgen05.shape", {"64, 128 or 256"}));
  EXPECT_TRUE(throws_check([] { cell(Datapath::F, 32, 64, 0); }, "tcgen05.shape", {"outside the 64 x 32"}));
  EXPECT_TRUE(throws_check([] { cell(Datapath::D, 256, 0, 0, 0, 300); }, "tmem.address", {"past the last column"}));
  EXPECT_TRUE(throws_check([] { accumulator_cell(sm90(), Datapath::D, 64, 0, 0, TmemAddress{}); }, "target.feature"));
  EXPECT_TRUE(throws_check([] { parse_datapath("H"); }, "tmem.datapath"));
  EXPECT_EQ(parse_datapath("F"), Datapath::F);
}

std::vector<std::tuple<int, int, int>> sf(SfDatapath dp, ScaleVec v, int x, int s, int id, int mn, int c0 = 0) {
  std::vector<std::tuple<int, int, int>> out;
  for (const SfCell& c : scale_factor_cells(sm100(), dp, v, x, s, id, mn, TmemAddress::make(0, c0)))
    out.emplace_back(c.lane, c.col, c.byte);
  return out;
}

TEST(Tcgen05MmaScaleFactors, ReplicatedToAllFourSubPartitions) {
  using V = std::vector<std::tuple<int, int, int>>;
  // Row 33 of A, scale 1 of 4 (scale_vec::4X), SF columns from 4: lanes 1,33,65,97, column 5, byte 1.
  EXPECT_EQ(sf(SfDatapath::k4x1, ScaleVec::k4X, 33, 1, 0, 128, 4),
            (V{{1, 5, 1}, {33, 5, 1}, {65, 5, 1}, {97, 5, 1}}));
  // 1X with SF_ID 3: byte 3.
  EXPECT_EQ(sf(SfDatapath::k4x1, ScaleVec::k1X, 127, 0, 3, 128), (V{{31, 3, 3}, {63, 3, 3}, {95, 3, 3}, {127, 3, 3}}));
  // 2X with SF_ID 2: bytes 2 and 3. SFB N = 256 needs 8 columns.
  EXPECT_EQ(sf(SfDatapath::k4x1, ScaleVec::k2X, 255, 1, 2, 256), (V{{31, 7, 3}, {63, 7, 3}, {95, 7, 3}, {127, 7, 3}}));
}

TEST(Tcgen05MmaScaleFactors, Sfb2x2MirrorsLayoutB) {
  using V = std::vector<std::tuple<int, int, int>>;
  EXPECT_EQ(sf(SfDatapath::k2x2, ScaleVec::k1X, 10, 0, 0, 256), (V{{10, 0, 0}, {42, 0, 0}}));
  EXPECT_EQ(sf(SfDatapath::k2x2, ScaleVec::k1X, 130, 0, 0, 256), (V{{66, 0, 0}, {98, 0, 0}}));
  EXPECT_EQ(sf(SfDatapath::k2x2, ScaleVec::k4X, 200, 2, 0, 256, 8), (V{{72, 10, 2}, {104, 10, 2}}));
}

TEST(Tcgen05MmaScaleFactors, IllegalScaleIndexOrId) {
  EXPECT_TRUE(throws_check([] { sf(SfDatapath::k4x1, ScaleVec::k1X, 0, 1, 0, 128); }, "tcgen05.shape", {"1X"}));
  EXPECT_TRUE(throws_check([] { sf(SfDatapath::k4x1, ScaleVec::k2X, 0, 0, 1, 128); }, "tcgen05.shape", {"2X"}));
  EXPECT_TRUE(throws_check([] { sf(SfDatapath::k4x1, ScaleVec::k4X, 0, 0, 2, 128); }, "tcgen05.shape", {"4X"}));
  EXPECT_TRUE(throws_check([] { sf(SfDatapath::k4x1, ScaleVec::k4X, 128, 0, 0, 128); }, "tcgen05.shape"));
  EXPECT_NO_THROW(sf(SfDatapath::k4x1, ScaleVec::k4X, 0, 0, 0, 128, 511));  // column 511 itself is fine for x < 32
  EXPECT_TRUE(throws_check([] { sf(SfDatapath::k4x1, ScaleVec::k4X, 127, 0, 0, 128, 510); }, "tmem.address",
                           {"column 513"}));
}

}  // namespace
}  // namespace tirx::hw
