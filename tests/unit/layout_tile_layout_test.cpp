// Core TileLayout / ComposeLayout semantics: apply in its three forms, size/span, replicas.
// Expected values from TVM's tests (shared/facts/tvm_test_facts.json, test_layout.py) and the
// seed chapter's worked examples.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "test_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {
namespace {
using namespace tirx::test;
using V = std::vector<std::int64_t>;

// The seed's (8,16) example: S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid
TileLayout seed_8x16() {
  return TL({I(8, 4, "laneid"), I(2, 1, "warpid"), I(4, 1, "laneid"), I(2, 1)}, {I(2, 4, "warpid")},
            {{"warpid", 5}});
}

TEST(TileLayoutApply, SeedExampleEveryElementMatchesClosedForm) {
  const TileLayout l = seed_8x16();
  const V shape{8, 16};
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t j = 0; j < 16; ++j) {
      const Coord c = l.apply(V{i, j}, shape);
      EXPECT_EQ(at(c, "laneid"), 4 * i + (j / 2) % 4) << i << "," << j;
      EXPECT_EQ(at(c, "warpid"), j / 8 + 5);
      EXPECT_EQ(at(c, "m"), j % 2);
      // Flat form agrees.
      EXPECT_EQ(l.apply(i * 16 + j), c);
      // Replica images: warpid and warpid + 4.
      const auto imgs = l.replica_images(l.split(i * 16 + j));
      ASSERT_EQ(imgs.size(), 2u);
      EXPECT_EQ(at(imgs[0], "warpid"), j / 8 + 5);
      EXPECT_EQ(at(imgs[1], "warpid"), j / 8 + 9);
    }
}

TEST(TileLayoutApply, SeedExampleOneThree) {
  // layout.apply(1, 3, shape=[8, 16]) -> {"laneid": 5, "warpid": 5, "m": 1}; digits (1,0,1,1).
  const TileLayout l = seed_8x16();
  const Coord c = l.apply(V{1, 3}, V{8, 16});
  EXPECT_EQ(c.to_string(), "{warpid: 5, laneid: 5, m: 1}");
  EXPECT_EQ(l.split(19), (V{1, 0, 1, 1}));
}

TEST(TileLayoutQueries, SeedExampleSizeSpan) {
  const TileLayout l = seed_8x16();
  EXPECT_EQ(l.size(), 128);
  EXPECT_EQ(l.size(AxisId::laneid), 32);
  EXPECT_EQ(l.span(), 2);
  EXPECT_EQ(l.span(AxisId::warpid), 11);
  EXPECT_EQ(l.replica_count(), 2);
}

TEST(TileLayoutApply, TmemDocExample) {
  // S[(2,128,112):(112@TCol,1@TLane,1@TCol)]: (1,127,111) -> (127, 223); spans 224 / 128.
  const TileLayout l = TL({I(2, 112, "TCol"), I(128, 1, "TLane"), I(112, 1, "TCol")});
  const Coord c = l.apply(V{1, 127, 111}, V{2, 128, 112});
  EXPECT_EQ(at(c, "TLane"), 127);
  EXPECT_EQ(at(c, "TCol"), 223);
  EXPECT_EQ(l.span(AxisId::TCol), 224);
  EXPECT_EQ(l.span(AxisId::TLane), 128);
}

TEST(TileLayoutApply, SeedScaleFactorAtomReplicatesToFourLaneGroups) {
  // Seed: S[(32, sf_per_mma):(1@TLane, 1@TCol)] + R[4:32@TLane]; (r, s) -> TLane r + 32q, TCol s.
  for (std::int64_t sf_per_mma : {1, 2, 4}) {
    const TileLayout l = TL({I(32, 1, "TLane"), I(sf_per_mma, 1, "TCol")}, {I(4, 32, "TLane")});
    for (std::int64_t r = 0; r < 32; ++r)
      for (std::int64_t s = 0; s < sf_per_mma; ++s) {
        const auto imgs = l.replica_images(V{r, s});
        ASSERT_EQ(imgs.size(), 4u);
        for (std::int64_t q = 0; q < 4; ++q) {
          EXPECT_EQ(at(imgs[q], "TLane"), r + 32 * q);
          EXPECT_EQ(at(imgs[q], "TCol"), s);
        }
        // apply() reports only the base copy, as TVM.
        EXPECT_EQ(at(l.apply(V{r, s}, V{32, sf_per_mma}), "TLane"), r);
      }
    EXPECT_EQ(l.span(AxisId::TLane), 128);
  }
}

TEST(TileLayoutApply, FlatFormExtrapolatesOutermostDigit) {
  // test_apply test_tile_layout_1: S[(8,8):(10,1)].apply(19) -> 23; apply(70) -> 86 (digits 8,6).
  const TileLayout l = TL({I(8, 10), I(8, 1)});
  EXPECT_EQ(at(l.apply(19), "m"), 23);
  EXPECT_EQ(at(l.apply(70), "m"), 86);
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t j = 0; j < 8; ++j) EXPECT_EQ(at(l.apply(i * 8 + j), "m"), 10 * i + j);
  // Grouped path does not wrap an out-of-range coordinate: apply(0, 9, shape=(8,8)) -> 9.
  EXPECT_EQ(at(l.apply(V{0, 9}, V{8, 8}), "m"), 9);
  EXPECT_EQ(at(l.apply(9), "m"), 11);
}

TEST(TileLayoutApply, ShapeFormGroupsAcrossIters) {
  // test_apply test_tile_layout_2: S[(2,3,4,2,2):(1,2,12,6,48)].apply(4, 13, shape=(6,16)) -> 87
  const TileLayout l = TL({I(2, 1), I(3, 2), I(4, 12), I(2, 6), I(2, 48)});
  EXPECT_EQ(at(l.apply(V{4, 13}, V{6, 16}), "m"), 87);
  // apply(2,3,shape=(8,8)) on S[(8,8):(10,1)] -> 23
  EXPECT_EQ(at(TL({I(8, 10), I(8, 1)}).apply(V{2, 3}, V{8, 8}), "m"), 23);
}

TEST(TileLayoutApply, ShapeFormWithUnitIterAndLaneAxis) {
  // test_tile_layout_3: S[(8,1,4,2):(4@laneid,2,1@laneid,1)] apply(i0,i1,shape=(8,8))
  //   -> {m: i1%2, laneid: 4*i0 + i1//2}
  const TileLayout l = TL({I(8, 4, "laneid"), I(1, 2), I(4, 1, "laneid"), I(2, 1)});
  for (std::int64_t i0 = 0; i0 < 8; ++i0)
    for (std::int64_t i1 = 0; i1 < 8; ++i1) {
      const Coord c = l.apply(V{i0, i1}, V{8, 8});
      EXPECT_EQ(at(c, "m"), i1 % 2);
      EXPECT_EQ(at(c, "laneid"), 4 * i0 + i1 / 2);
    }
  EXPECT_EQ(l.span(), 2);  // test_size_span: memory axes only
}

TEST(TileLayoutApply, TrainiumAxes) {
  // S[(8,8):(8@F,1@P)].apply(i,j,shape=(8,8)) -> P = j, F = 8i
  const TileLayout l = TL({I(8, 8, "F"), I(8, 1, "P")});
  const Coord c = l.apply(V{3, 5}, V{8, 8});
  EXPECT_EQ(at(c, "P"), 5);
  EXPECT_EQ(at(c, "F"), 24);
  // S[(2,6,4,2,2):(1@F,1@P,12@F,6@P,48@F)].apply(7, 13, shape=(12,16)) -> P 1, F 85
  const TileLayout t = TL({I(2, 1, "F"), I(6, 1, "P"), I(4, 12, "F"), I(2, 6, "P"), I(2, 48, "F")});
  const Coord d = t.apply(V{7, 13}, V{12, 16});
  EXPECT_EQ(at(d, "P"), 1);
  EXPECT_EQ(at(d, "F"), 85);
}

TEST(TileLayoutApply, PerIterFormCountMustMatch) {
  const TileLayout l = TL({I(8, 8), I(8, 1)});
  EXPECT_THROW(l.apply_iters(V{1, 1, 1}), InputError);
  EXPECT_THROW(l.apply(V{1, 1, 1}, V{8, 8}), InputError);
  EXPECT_EQ(at(l.apply_iters(V{2, 3}), "m"), 19);
}

TEST(TileLayoutQueries, SizeSpanFacts) {
  EXPECT_EQ(TL({I(8, 8), I(8, 1)}).size(), 64);
  EXPECT_EQ(TL({I(8, 8), I(8, 1)}).span(), 64);
  EXPECT_EQ(TL({I(8, 8), I(6, 1)}).span(), 62);
  EXPECT_EQ(TL({I(8, 1, "P")}).size(AxisId::P), 8);
  EXPECT_EQ(TL({I(8, 1, "P")}).size(AxisId::F), 1);
  EXPECT_EQ(TL({I(8, 1, "P"), I(8, 1, "F")}).size(AxisId::P), 8);
  const TileLayout f = TL({I(8, 64, "F"), I(8, 1, "P"), I(8, 1, "F")});
  EXPECT_EQ(f.size(AxisId::F), 64);
  EXPECT_EQ(f.size(AxisId::P), 8);
  EXPECT_EQ(f.span(AxisId::F), 456);
  // span() with no axis mixes TLane and TCol (TVM): S[(128,64):(1@TLane,1@TCol)] -> 191
  EXPECT_EQ(TL({I(128, 1, "TLane"), I(64, 1, "TCol")}).span(), 191);
}

TEST(TileLayoutValidate, RejectsBadExtentsAndOverflow) {
  EXPECT_THROW(TL({I(0, 1)}).validate(), InputError);
  EXPECT_THROW(TL({I(-3, 1)}).validate(), InputError);
  EXPECT_THROW(TL({I(1LL << 40, 1), I(1LL << 40, 1)}).validate(), InputError);
  EXPECT_THROW(TL({I(1LL << 40, 1LL << 40)}).validate(), InputError);
  try {
    TL({I(4, 1), I(0, 1)}).validate();
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "layout.well-formed");
    EXPECT_NE(e.message().find("extent 0"), std::string::npos);
  }
  EXPECT_NO_THROW(seed_8x16().validate());
}

TEST(ComposeLayoutApply, SwizzleFacts) {
  // ComposeLayout(0,3,3,S[64:1]): 8i+j -> 8i + (i XOR j)
  const ComposeLayout a = CL(0, 3, 3, TL({I(64, 1)}));
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(at(a.apply(8 * i + j), "m"), 8 * i + (i ^ j));
  // swizzle_inner=False: 8i+j -> 8(i XOR j) + j; apply(29) = 53
  const ComposeLayout b = CL(0, 3, 3, TL({I(64, 1)}), false);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(at(b.apply(8 * i + j), "m"), 8 * (i ^ j) + j);
  EXPECT_EQ(at(b.apply(29), "m"), 53);
  // ComposeLayout(0,2,3,S[32:1]).apply(30) = 29
  EXPECT_EQ(at(CL(0, 2, 3, TL({I(32, 1)})).apply(30), "m"), 29);
  // ComposeLayout(3,3,3,S[512:1]): ((8i+j)*8+k) -> (8i + (i XOR j))*8 + k; apply(234)=242; apply(600)=592
  const ComposeLayout c = CL(3, 3, 3, TL({I(512, 1)}));
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 8; ++k) EXPECT_EQ(at(c.apply((8 * i + j) * 8 + k), "m"), (8 * i + (i ^ j)) * 8 + k);
  EXPECT_EQ(at(c.apply(234), "m"), 242);
  EXPECT_EQ(at(c.apply(600), "m"), 592);
  EXPECT_EQ(c.size(), 512);
  EXPECT_EQ(c.span(), 512);
}

TEST(ComposeLayoutApply, SeedBankExample) {
  // 128B swizzle on (8,64) float16: column j=0 visits banks 0,4,...,28; unswizzled: bank 0.
  const ComposeLayout l = CL(3, 3, 3, TL({I(8, 64), I(64, 1)}));
  const TileLayout plain = TL({I(8, 64), I(64, 1)});
  std::set<std::int64_t> banks;
  for (std::int64_t i = 0; i < 8; ++i) {
    const std::int64_t addr = at(l.apply(V{i, 0}, V{8, 64}), "m");
    EXPECT_EQ(addr, 72 * i);
    EXPECT_EQ((addr * 2 / 4) % 32, 4 * i);  // float16: 2 bytes, 4-byte banks
    banks.insert((addr * 2 / 4) % 32);
    EXPECT_EQ((at(plain.apply(V{i, 0}, V{8, 64}), "m") * 2 / 4) % 32, 0);
  }
  EXPECT_EQ(banks.size(), 8u);
  // General closed form: 64i + 8*((j/8) XOR i) + j%8
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t j = 0; j < 64; ++j)
      EXPECT_EQ(at(l.apply(V{i, j}, V{8, 64}), "m"), 64 * i + 8 * ((j / 8) ^ i) + j % 8);
}

TEST(ComposeLayoutValidate, RejectsIllegalSwizzleAndThreadAxes) {
  try {
    CL(3, 3, 2, TL({I(512, 1)})).validate();
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "swizzle.legal");
  }
  EXPECT_THROW(CL(-1, 0, 0, TL({I(8, 1)})).validate(), InputError);
  EXPECT_THROW(CL(3, 3, 3, TL({I(8, 1, "laneid")})).validate(), InputError);
  EXPECT_NO_THROW(CL(3, 3, 3, TL({I(512, 1)})).validate());
}

TEST(Group, SplitsOuterPartFirst) {
  // S[(8,8,8,8):(512,8,64,1)].group([64,64]) -> same layout, seps [0,2,4]
  const TileLayout l = TL({I(8, 512), I(8, 8), I(8, 64), I(8, 1)});
  const Grouped g = group(l, V{64, 64});
  EXPECT_EQ(g.layout, l);
  EXPECT_EQ(g.seps, (std::vector<std::size_t>{0, 2, 4}));
  // S[64:1] grouped by (8,8) splits into (8,8),(8,1)
  const Grouped h = group(TL({I(64, 1)}), V{8, 8});
  EXPECT_EQ(h.layout, TL({I(8, 8), I(8, 1)}));
  EXPECT_FALSE(try_group(TL({I(6, 1)}), V{4, 2}).has_value());
  EXPECT_FALSE(try_group(TL({I(8, 1)}), V{4, 4}).has_value());
  EXPECT_THROW(group(TL({I(8, 1)}), V{3, 3}), InputError);
}

}  // namespace
}  // namespace tirx
