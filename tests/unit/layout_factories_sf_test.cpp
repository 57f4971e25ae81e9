// sf_tmem_layout / sf_smem_layout: spec (g) tables (derived from TVM gemm_async/tcgen05.py),
// the PTX ISA 9.1 §9.7.16.10.7 placement (lane x%32 in every sub-partition, byte = scale index)
// and the tcgen05.cp.32x128b.warpx4 correspondence between the two layouts (§9.7.16.9.2).
#include <gtest/gtest.h>

#include <set>

#include "layout_algebra_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx {
namespace {

using test::L;

TEST(SfTmem, SpecTable) {
  struct Case {
    std::int64_t rows, sf_k, per_mma, reuse;
    std::optional<std::int64_t> pipe;
    const char* layout;
  };
  const Case cases[] = {
      {128, 4, 4, 1, {}, "S[(4,32,4):(4@TCol,1@TLane,1@TCol)] + R[4:32@TLane]"},
      {128, 8, 4, 1, {}, "S[(4,32,2,4):(4@TCol,1@TLane,16@TCol,1@TCol)] + R[4:32@TLane]"},
      {128, 16, 4, 1, {}, "S[(4,32,4,4):(4@TCol,1@TLane,16@TCol,1@TCol)] + R[4:32@TLane]"},
      {128, 4, 2, 1, {}, "S[(4,32,4):(4@TCol,1@TLane,1@TCol)] + R[4:32@TLane]"},
      {128, 1, 1, 1, {}, "S[(4,32):(4@TCol,1@TLane)] + R[4:32@TLane]"},
      {128, 4, 1, 1, {}, "S[(4,32,4):(4@TCol,1@TLane,1@TCol)] + R[4:32@TLane]"},
      {128, 3, 1, 1, {}, "S[(4,32,3):(4@TCol,1@TLane,16@TCol)] + R[4:32@TLane]"},
      {256, 16, 4, 1, {}, "S[(8,32,4,4):(4@TCol,1@TLane,32@TCol,1@TCol)] + R[4:32@TLane]"},
      {128, 4, 1, 4, {}, "S[(4,32,4,4):(4@TCol,1@TLane,1@TCol,0@TCol)] + R[4:32@TLane]"},
      {128, 4, 4, 1, 2, "S[(2,4,32,4):(16@TCol,4@TCol,1@TLane,1@TCol)] + R[4:32@TLane]"},
      {32, 4, 4, 1, {}, "S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]"},
      // M=1 edge case kept from TVM: the extra iters take the first shard axis, TLane
      {32, 4, 4, 2, {}, "S[(32,4,2):(1@TLane,1@TCol,0@TLane)] + R[4:32@TLane]"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.layout);
    EXPECT_LAYOUT_EQ(Layout(sf_tmem_layout(c.rows, c.sf_k, c.per_mma, c.reuse, c.pipe)), Layout(L(c.layout)));
  }
  // spec (g): (128,16,4) element (33,5) -> TLane 1, TCol 21 (32-bit column 5, byte 1)
  const TileLayout l = sf_tmem_layout(128, 16, 4);
  const std::int64_t co[] = {33, 5}, sh[] = {128, 16};
  EXPECT_EQ(l.apply(co, sh).get(AxisId::TLane), 1);
  EXPECT_EQ(l.apply(co, sh).get(AxisId::TCol), 21);
}

// PTX ISA 9.1 §9.7.16.10.7 (CUTLASS tmem_sf_frg): scale (x, s) of one MMA sits at lanes
// x%32 + 32j for all j, 32-bit column x/32 (+ the MMA's column block), byte s.
TEST(SfTmem, PlacementMatchesPtx) {
  for (std::int64_t rows : {32, 128, 256})
    for (std::int64_t per_mma : {1, 2, 4})
      for (std::int64_t sf_k : {per_mma, 4 * per_mma, std::int64_t{8}}) {
        if (sf_k % per_mma != 0) continue;
        SCOPED_TRACE(std::to_string(rows) + "," + std::to_string(sf_k) + "," + std::to_string(per_mma));
        const TileLayout l = sf_tmem_layout(rows, sf_k, per_mma);
        std::set<std::pair<std::int64_t, std::int64_t>> cells;  // (lane, byte column)
        for (std::int64_t x = 0; x < rows; ++x)
          for (std::int64_t k = 0; k < sf_k; ++k) {
            const std::int64_t co[] = {x, k}, sh[] = {rows, sf_k};
            // every replica image: the same column, lanes x%32 + 32j
            const auto imgs = l.replica_images(l.split(x * sf_k + k));
            ASSERT_EQ(imgs.size(), 4u);
            std::set<std::int64_t> lanes;
            for (const Coord& c : imgs) {
              lanes.insert(c.get(AxisId::TLane));
              EXPECT_EQ(c.get(AxisId::TCol), imgs[0].get(AxisId::TCol));
            }
            EXPECT_EQ(lanes, (std::set<std::int64_t>{x % 32, x % 32 + 32, x % 32 + 64, x % 32 + 96}));
            const Coord p = l.apply(co, sh);
            EXPECT_EQ(p.get(AxisId::TLane), x % 32);
            const std::int64_t tcol = p.get(AxisId::TCol);
            // within one MMA step (k / per_mma) the scale index s = k % per_mma is the byte
            // offset from the step's first byte, inside one 32-bit cell
            EXPECT_EQ(tcol % 4 % per_mma, k % per_mma);
            // row chunk x/32 picks the 32-bit column inside a step's block of rows/32 cells
            EXPECT_TRUE(cells.insert({x % 32, tcol}).second) << "two scales share a byte";
          }
        EXPECT_EQ(static_cast<std::int64_t>(cells.size()), 32 * (rows / 32) * sf_k);
      }
}

TEST(SfSmem, SpecTable) {
  struct Case {
    std::int64_t rows, sf_k, per_mma, reuse;
    std::optional<std::int64_t> pipe;
    const char* layout;
  };
  const Case cases[] = {
      {128, 4, 4, 1, {}, "S[(4,32,4):(4,16,1)]"},
      {128, 16, 4, 1, {}, "S[(4,32,4,4):(4,16,512,1)]"},
      {128, 4, 2, 1, {}, "S[(4,32,2,2):(4,16,2,1)]"},
      {256, 16, 4, 1, {}, "S[(2,4,32,4,4):(2048,4,16,512,1)]"},
      {128, 4, 1, 4, {}, "S[(4,32,4,4):(4,16,1,0)]"},
      {128, 8, 4, 1, 3, "S[(3,4,32,2,4):(1024,4,16,512,1)]"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.layout);
    EXPECT_LAYOUT_EQ(Layout(sf_smem_layout(c.rows, c.sf_k, c.per_mma, c.reuse, c.pipe)), Layout(L(c.layout)));
  }
  // spec: buffer row r = 32i + lane -> byte 16*lane + 4*i + 512*(k/4) + k%4
  const TileLayout l = sf_smem_layout(128, 16, 4);
  for (std::int64_t r = 0; r < 128; ++r)
    for (std::int64_t k = 0; k < 16; ++k)
      ASSERT_EQ(l.apply(r * 16 + k).get(AxisId::m), 16 * (r % 32) + 4 * (r / 32) + 512 * (k / 4) + k % 4);
}

// One tcgen05.cp.32x128b.warpx4 per 512-byte super block (row block rb, K block ko) copies
// smem byte 16*lane + b (b < 16) to TMEM lane `lane`, byte column 16*(rb + (rows/128)*ko) + b.
TEST(SfLayouts, SmemAndTmemAgreeThroughTcgen05Cp) {
  for (std::int64_t rows : {128, 256})
    for (std::int64_t per_mma : {1, 2, 4})
      for (std::int64_t sf_k : {4, 8, 16}) {
        SCOPED_TRACE(std::to_string(rows) + "," + std::to_string(sf_k) + "," + std::to_string(per_mma));
        const TileLayout smem = sf_smem_layout(rows, sf_k, per_mma), tmem = sf_tmem_layout(rows, sf_k, per_mma);
        const std::int64_t k_outer = sf_k / 4, row_blocks = rows / 128;
        for (std::int64_t x = 0; x < rows * sf_k; ++x) {
          const std::int64_t byte = smem.apply(x).get(AxisId::m);
          const std::int64_t block = byte / 512, rb = block / k_outer, ko = block % k_outer;
          const Coord t = tmem.apply(x);
          ASSERT_EQ(t.get(AxisId::TLane), (byte % 512) / 16);
          ASSERT_EQ(t.get(AxisId::TCol), 16 * (rb + row_blocks * ko) + byte % 16);
        }
      }
}

TEST(SfLayouts, Rejects) {
  EXPECT_THROW(sf_tmem_layout(128, 6, 4), InputError);   // SF_K % sf_per_mma
  EXPECT_THROW(sf_tmem_layout(48, 4, 4), InputError);    // rows not a multiple of 32 (TVM floors)
  EXPECT_THROW(sf_tmem_layout(128, 4, 0), InputError);
  EXPECT_THROW(sf_smem_layout(64, 4, 4), InputError);    // rows % 128
  EXPECT_THROW(sf_smem_layout(128, 4, 3), InputError);   // 4 % sf_per_mma
  EXPECT_THROW(sf_smem_layout(128, 6, 2), InputError);   // SF_K % 4
  EXPECT_THROW(sf_smem_layout(128, 4, 4, 1, 0), InputError);
}

}  // namespace
}  // namespace tirx
