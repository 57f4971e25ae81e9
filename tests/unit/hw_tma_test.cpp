// TMA tile loads: the 8-row uint16 tile of the H200 probe for NONE/32B/64B/128B (every
// element where Swizzle<b,4,3> on byte addresses puts it), Blackwell's 128B_ATOM_32B, a
// destination that is not period-aligned, out-of-bounds fill and the legality checks.
#include <gtest/gtest.h>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/tma.hpp"

namespace tirx::hw {
namespace {
using test::sm100;
using test::sm90;
using test::throws_check;

// 8 x 64 uint16 tensor, value = linear index (as in the probe).
GlobalTensor probe_tensor() {
  GlobalTensor g;
  g.elem_bytes = 2;
  g.dims = {64, 8};
  g.strides_bytes = {128};
  for (int i = 0; i < 8 * 64; ++i) {
    g.bytes.push_back(static_cast<std::uint8_t>(i & 0xFF));
    g.bytes.push_back(static_cast<std::uint8_t>(i >> 8));
  }
  return g;
}

TEST(Tma, ProbeTileEveryElementWhereSwizzleB43PutsIt) {
  const TmaSwizzle modes[] = {TmaSwizzle::kNone, TmaSwizzle::k32B, TmaSwizzle::k64B, TmaSwizzle::k128B};
  const int box_cols[] = {64, 16, 32, 64};
  for (const Target* t : {&sm90(), &sm100()})
    for (int b = 0; b < 4; ++b) {
      SharedMemory smem(*t);
      GlobalTensor g = probe_tensor();
      tma_tile_load(*t, g, TmaTileLoad{{box_cols[b], 8}, {0, 0}, modes[b], 0}, smem);
      int mism = 0;
      for (std::uint32_t i = 0; i < 8; ++i)
        for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(box_cols[b]); ++j) {
          std::uint32_t byte = (i * box_cols[b] + j) * 2;
          std::uint32_t sb = byte ^ (((byte >> 7) & ((1u << b) - 1)) << 4);  // the probe's model
          if (smem.read_u16(sb) != i * 64 + j) ++mism;
        }
      EXPECT_EQ(mism, 0) << t->name << " mode " << b;
    }
}

TEST(Tma, SpotPlacementsFor128B) {
  SharedMemory smem(sm90());
  tma_tile_load(sm90(), probe_tensor(), TmaTileLoad{{64, 8}, {0, 0}, TmaSwizzle::k128B, 0}, smem);
  EXPECT_EQ(smem.read_u16(144), 64);       // row 1, col 0 -> chunk 1 of line 1
  EXPECT_EQ(smem.read_u16(128), 64 + 8);   // row 1, col 8 -> chunk 0 of line 1
  EXPECT_EQ(smem.read_u16(7 * 128 + 112), 7 * 64);  // row 7, col 0 -> chunk 7
}

TEST(Tma, Atom32BOnBlackwellOnly) {
  SharedMemory smem(sm100());
  tma_tile_load(sm100(), probe_tensor(), TmaTileLoad{{64, 8}, {0, 0}, TmaSwizzle::k128BAtom32B, 0}, smem);
  for (std::uint32_t i = 0; i < 8; ++i)
    for (std::uint32_t j = 0; j < 64; ++j) {
      std::uint32_t byte = (i * 64 + j) * 2;
      ASSERT_EQ(smem.read_u16(byte ^ (((byte >> 7) & 3) << 5)), i * 64 + j);
    }
  SharedMemory h(sm90());
  EXPECT_TRUE(throws_check(
      [&] { tma_tile_load(sm90(), probe_tensor(), TmaTileLoad{{64, 8}, {0, 0}, TmaSwizzle::k128BAtom32B, 0}, h); },
      "swizzle.legal", {"sm_90a"}));
}

TEST(Tma, MisalignedDestinationShiftsThePatternPhase) {
  // dst = 1024 + 384: the pattern starts at phase 3 ((dst / 128) % 8), as the XOR reads the
  // absolute address bits 7..9.
  const std::uint64_t dst = 1024 + 384;
  SharedMemory smem(sm90());
  tma_tile_load(sm90(), probe_tensor(), TmaTileLoad{{64, 8}, {0, 0}, TmaSwizzle::k128B, dst}, smem);
  EXPECT_EQ(smem.read_u16(dst + 48), 0);        // row 0, col 0: chunk 0 ^ 3
  EXPECT_EQ(smem.read_u16(dst), 24);            // row 0, col 24 (chunk 3) -> chunk 0
  EXPECT_EQ(smem.read_u16(dst + 128 + 64), 64); // row 1 (line 4): chunk 0 ^ 4
  int mism = 0, written = 0;
  for (std::uint64_t i = 0; i < 8; ++i)
    for (std::uint64_t j = 0; j < 64; ++j) {
      std::uint64_t a = dst + (i * 64 + j) * 2;
      std::uint64_t sa = a ^ (((a >> 7) & 7) << 4);
      if (smem.read_u16(sa) != i * 64 + j) ++mism;
    }
  for (std::uint64_t a = dst; a < dst + 1024; ++a) written += smem.is_written(a);
  EXPECT_EQ(mism, 0);
  EXPECT_EQ(written, 1024);
  EXPECT_FALSE(smem.is_written(dst - 1));
  EXPECT_FALSE(smem.is_written(dst + 1024));
}

TEST(Tma, BoxNarrowerThanTheSpanIsPaddedToIt) {
  // 16 uint16 columns (32 bytes) with a 128B swizzle: rows sit 128 bytes apart, each row's 32
  // bytes swizzled by its line, the other 96 bytes of each line untouched (H200 readback).
  SharedMemory smem(sm90());
  GlobalTensor g = probe_tensor();
  TmaTileLoad l{{16, 8}, {8, 0}, TmaSwizzle::k128B, 0};
  EXPECT_EQ(tma_box_row_pitch(g, l), 128);
  EXPECT_EQ(tma_box_smem_bytes(g, l), 1024);
  tma_tile_load(sm90(), g, l, smem);
  for (std::uint64_t i = 0; i < 8; ++i)
    for (std::uint64_t j = 0; j < 16; ++j) {
      std::uint64_t a = 128 * i + 2 * j;
      ASSERT_EQ(smem.read_u16(a ^ ((i & 7) << 4)), i * 64 + 8 + j) << i << "," << j;
    }
  int written = 0;
  for (std::uint64_t a = 0; a < 1024; ++a) written += smem.is_written(a);
  EXPECT_EQ(written, 8 * 32);
  EXPECT_EQ(smem.read_u16(144), 64 + 8);      // row 1, col 0: chunk 0 of line 1 -> chunk 1
  EXPECT_EQ(smem.read_u16(128), 64 + 8 + 8);  // row 1, col 8: chunk 1 -> chunk 0
  EXPECT_FALSE(smem.is_written(160));         // chunks 2..7 of line 1: padding, untouched
}

TEST(Tma, OutOfBoundsElementsAreZeroFilled) {
  SharedMemory smem(sm90());
  // Box starts 8 columns (16 bytes) left of the tensor: the first 8 elements of each row are zeros.
  tma_tile_load(sm90(), probe_tensor(), TmaTileLoad{{64, 8}, {-8, 0}, TmaSwizzle::kNone, 0}, smem);
  for (std::uint64_t i = 0; i < 8; ++i) {
    for (std::uint64_t j = 0; j < 8; ++j) EXPECT_EQ(smem.read_u16((i * 64 + j) * 2), 0);
    EXPECT_EQ(smem.read_u16((i * 64 + 8) * 2), i * 64);
    EXPECT_EQ(smem.read_u16((i * 64 + 63) * 2), i * 64 + 55);
  }
  // Rows past the end too.
  SharedMemory s2(sm90());
  tma_tile_load(sm90(), probe_tensor(), TmaTileLoad{{16, 4}, {0, 6}, TmaSwizzle::kNone, 0}, s2);
  EXPECT_EQ(s2.read_u16(0), 6 * 64);
  EXPECT_EQ(s2.read_u16(32), 7 * 64);
  EXPECT_EQ(s2.read_u16(64), 0);
  EXPECT_TRUE(s2.is_written(64));
}

TEST(Tma, ThreeDimensionalBoxWithPaddedStrides) {
  // 4 x 3 x 2 uint32 tensor with a padded row stride of 32 bytes and plane stride 128.
  GlobalTensor g;
  g.elem_bytes = 4;
  g.dims = {4, 3, 2};
  g.strides_bytes = {32, 128};
  g.bytes.assign(256, 0);
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x) g.bytes[static_cast<std::size_t>(z * 128 + y * 32 + x * 4)] = static_cast<std::uint8_t>(100 * z + 10 * y + x);
  SharedMemory smem(sm90());
  tma_tile_load(sm90(), g, TmaTileLoad{{4, 2, 2}, {0, 1, 0}, TmaSwizzle::kNone, 256}, smem);
  // Dense box: (x, y, z) at 256 + 4 * (x + 4 * (y + 2 * z)).
  EXPECT_EQ(smem.read_u32(256), 10u);
  EXPECT_EQ(smem.read_u32(256 + 4 * 4), 20u);
  EXPECT_EQ(smem.read_u32(256 + 4 * (3 + 4 * (1 + 2 * 1))), 123u);
}

TEST(Tma, LegalityChecks) {
  SharedMemory smem(sm90());
  GlobalTensor g = probe_tensor();
  auto load = [&](TmaTileLoad l) { tma_tile_load(sm90(), g, l, smem); };
  EXPECT_TRUE(throws_check([&] { load({{64, 8}, {0, 0}, TmaSwizzle::k64B, 0}); }, "tma.box",
                           {"128 bytes exceeds the 64B swizzle span"}));
  EXPECT_TRUE(throws_check([&] { load({{64, 8}, {4, 0}, TmaSwizzle::kNone, 0}); }, "tma.box",
                           {"inner start coordinate 4", "byte 8", "illegal instruction"}));
  EXPECT_TRUE(throws_check([&] { load({{4, 8}, {0, 0}, TmaSwizzle::kNone, 0}); }, "tma.box", {"multiple of 16"}));
  EXPECT_TRUE(throws_check([&] { load({{64, 8}, {0, 0}, TmaSwizzle::k128B, 64}); }, "tma.box", {"128-byte aligned"}));
  EXPECT_TRUE(throws_check([&] { load({{64, 257}, {0, 0}, TmaSwizzle::kNone, 0}); }, "tma.box", {"[1, 256]"}));
  EXPECT_TRUE(throws_check([&] { load({{64}, {0}, TmaSwizzle::kNone, 0}); }, "tma.box", {"2 entries"}));
  EXPECT_TRUE(throws_check([&] { load({{64, 8}, {0, 0}, TmaSwizzle::kNone, 232448 - 512}); }, "smem.access"));
  GlobalTensor bad = probe_tensor();
  bad.strides_bytes = {120};
  EXPECT_TRUE(throws_check([&] { tma_tile_load(sm90(), bad, TmaTileLoad{{64, 8}, {0, 0}, TmaSwizzle::kNone, 0}, smem); },
                           "tma.box", {"multiple of 16"}));
}

}  // namespace
}  // namespace tirx::hw
