// tcgen05.cp: every shape's destination lanes (multicast included) executed from shared
// memory through a descriptor, and the descriptor's bit layout. Spec §4.1, §4.2.
#include <gtest/gtest.h>

#include <set>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/tcgen05_cp.hpp"

namespace tirx::hw {
namespace {
using test::sm100;
using test::throws_check;

std::uint8_t pattern(std::uint64_t a) { return static_cast<std::uint8_t>((a * 7 + 3) ^ (a >> 8)); }

SharedMemory patterned() {
  SharedMemory s(sm100());
  for (std::uint64_t a = 0; a < 16384; ++a) s.write_u8(a, pattern(a));
  return s;
}

// Independent reading of the source: K-major, no swizzle, core matrices of 8 rows x 16 B,
// core matrix (r/8, chunk) at start + (r/8)*SBO + chunk*LBO.
std::uint32_t source_word(std::uint64_t start, std::uint64_t lbo, std::uint64_t sbo, int r, int byte) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    int b = byte + i;
    std::uint64_t a = start + (r / 8) * sbo + (b / 16) * lbo + (r % 8) * 16 + b % 16;
    v |= static_cast<std::uint32_t>(pattern(a)) << (8 * i);
  }
  return v;
}

struct Expect {
  CpShape shape;
  int rows, bits;
  std::vector<std::pair<int, std::vector<int>>> lanes;  // (row, its destination lanes) spot values
};

TEST(Tcgen05Cp, ShapesAndTheirDestinationLanes) {
  const std::vector<Expect> cases = {
      {CpShape::k128x256b, 128, 256, {{0, {0}}, {77, {77}}, {127, {127}}}},
      {CpShape::k128x128b, 128, 128, {{5, {5}}, {100, {100}}}},
      {CpShape::k4x256b, 4, 256, {{0, {0}}, {1, {32}}, {2, {64}}, {3, {96}}}},
      {CpShape::k32x128bWarpx4, 32, 128, {{5, {5, 37, 69, 101}}, {31, {31, 63, 95, 127}}}},
      {CpShape::k64x128bWarpx2_02_13, 64, 128, {{3, {3, 67}}, {40, {40, 104}}}},
      {CpShape::k64x128bWarpx2_01_23, 64, 128, {{3, {3, 35}}, {40, {72, 104}}}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(cp_rows(c.shape), c.rows);
    EXPECT_EQ(cp_row_bits(c.shape), c.bits);
    for (const auto& [row, lanes] : c.lanes) EXPECT_EQ(cp_destination_lanes(c.shape, 0, row), lanes) << to_string(c.shape);
    // Every shape covers each destination lane at most once, and 128 lanes when multicast
    // fills the sub-partitions (4x256b: 4 lanes).
    std::set<int> all;
    int n = 0;
    for (int r = 0; r < c.rows; ++r)
      for (int l : cp_destination_lanes(c.shape, 0, r)) all.insert(l), ++n;
    EXPECT_EQ(static_cast<int>(all.size()), n);
    EXPECT_EQ(n, c.shape == CpShape::k4x256b ? 4 : 128);
  }
  EXPECT_EQ(cp_destination_lanes(CpShape::k4x256b, 3, 2), (std::vector<int>{67}));
}

TEST(Tcgen05Cp, ExecutesEveryShapeFromSharedMemory) {
  const SharedMemory smem = patterned();
  const std::uint64_t start = 2048, lbo = 128, sbo = 256;  // 2 K-chunks per 8-row group
  for (CpShape s : kAllCpShapes) {
    Tmem t(sm100());
    t.allocator().alloc(64);
    const int C0 = 12;
    SmemDescriptor d{static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(lbo), static_cast<std::uint32_t>(sbo),
                     0, false, TmaSwizzle::kNone};
    tcgen05_cp(t, smem, s, TmemAddress::make(0, C0), d);
    int cols = cp_row_bits(s) / 32;
    std::set<int> dest;
    for (int r = 0; r < cp_rows(s); ++r)
      for (int lane : cp_destination_lanes(s, 0, r)) {
        dest.insert(lane);
        for (int c = 0; c < cols; ++c) {
          TmemCell cell = t.read(lane, C0 + c);
          ASSERT_EQ(cell.known, 0xFFFFFFFFu);
          ASSERT_EQ(cell.value, source_word(start, lbo, sbo, r, 4 * c)) << to_string(s) << " row " << r << " col " << c;
        }
      }
    // Nothing else was written.
    for (int lane = 0; lane < 128; ++lane)
      for (int c = 0; c < 64; ++c) {
        bool in = dest.count(lane) && c >= C0 && c < C0 + cols;
        if (!in) {
          ASSERT_EQ(t.read(lane, c).known, 0u) << to_string(s) << " lane " << lane << " col " << c;
        }
      }
  }
}

TEST(Tcgen05Cp, SwizzledSourceRows) {
  // .128x256b from a 32B-swizzled K-major source: row r, chunk k at
  // swz32(start + (r%8)*32 + (r/8)*SBO + 16k), swz32(a) = a ^ (((a>>7)&1)<<4).
  const SharedMemory smem = patterned();
  Tmem t(sm100());
  t.allocator().alloc(32);
  SmemDescriptor d{4096, 16, 256, 0, false, TmaSwizzle::k32B};
  tcgen05_cp(t, smem, CpShape::k128x256b, TmemAddress::make(0, 0), d);
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < 8; ++c) {
      std::uint64_t a = 4096 + (r % 8) * 32 + (r / 8) * 256 + 16 * (c / 4);
      a ^= ((a >> 7) & 1) << 4;
      a += 4 * (c % 4);
      std::uint32_t want = 0;
      for (int i = 0; i < 4; ++i) want |= static_cast<std::uint32_t>(pattern(a + i)) << (8 * i);
      ASSERT_EQ(t.read(r, c).value, want) << r << "," << c;
    }
}

TEST(Tcgen05Cp, Errors) {
  SharedMemory smem = patterned();
  Tmem t(sm100());
  t.allocator().alloc(32);
  SmemDescriptor d{0, 128, 256, 0, false, TmaSwizzle::kNone};
  EXPECT_TRUE(throws_check([&] { tcgen05_cp(t, smem, CpShape::k128x128b, TmemAddress::make(16, 0), d); },
                           "tmem.address", {"lane 128"}));
  EXPECT_TRUE(throws_check([&] { tcgen05_cp(t, smem, CpShape::k128x256b, TmemAddress::make(0, 28), d); },
                           "tmem.alloc", {"column 32"}));
  EXPECT_TRUE(throws_check([] { parse_cp_shape("64x128b"); }, "tcgen05.shape", {"warpx2::02_13"}));
  EXPECT_TRUE(throws_check([] { parse_cp_shape("32x128b"); }, "tcgen05.shape", {".warpx4"}));
  EXPECT_TRUE(throws_check([] { parse_cp_shape("256x128b"); }, "tcgen05.shape", {"unknown"}));
  EXPECT_EQ(parse_cp_shape(".64x128b.warpx2::01_23"), CpShape::k64x128bWarpx2_01_23);
  SmemDescriptor abs = d;
  abs.lbo_absolute = true;
  EXPECT_TRUE(throws_check([&] { tcgen05_cp(t, smem, CpShape::k128x128b, TmemAddress::make(0, 0), abs); },
                           "smem.descriptor", {"absolute LBO"}));
}

TEST(SmemDescriptor, CanonicalLayoutsAndTheBaseOffset) {
  // fp16, 128B K-major: (mn, k) at swz(start + (mn/8) SBO + (mn%8) 128 + 2k).
  SmemDescriptor k128{0, 16, 1024, 0, false, TmaSwizzle::k128B};
  EXPECT_EQ(k128.element_address(1, 0, 2, false), 144u);
  EXPECT_EQ(k128.element_address(9, 5, 2, false), 1024u + 128 + ((10u) ^ (1u << 4)));
  k128.base_offset = 3;  // the pattern restarts 3 lines later: line 1 is phase (1 - 3) mod 8 = 6
  EXPECT_EQ(k128.element_address(1, 0, 2, false), 224u);
  EXPECT_TRUE(throws_check([&] { k128.element_address(0, 64, 2, false); }, "smem.descriptor", {"beyond"}));
  // fp16, no swizzle, K-major: core matrices of 8 rows x 16 B, LBO between K chunks.
  SmemDescriptor none{256, 128, 512, 0, false, TmaSwizzle::kNone};
  EXPECT_EQ(none.element_address(10, 11, 2, false), 256u + 512 + 128 + 2 * 16 + 3 * 2);
  // MN-major, no swizzle: T = 8 MN elements per 16-byte row, SBO between MN groups.
  EXPECT_EQ(none.element_address(10, 11, 2, true), 256u + 512 + 2 * 2 + 128 + 3 * 16);
  // MN-major 64B (PTX's worked example: Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))
  // in fp16 elements with LBO = 512 B, SBO = 1024 B).
  SmemDescriptor mn64{0, 512, 1024, 0, false, TmaSwizzle::k64B};
  for (int mn = 0; mn < 64; ++mn)
    for (int k = 0; k < 16; ++k) {
      std::uint64_t elem = (mn % 8) + 8 * ((mn / 8) % 4) + 256 * (mn / 32) + 32 * (k % 8) + 512 * (k / 8);
      std::uint64_t byte = 2 * elem;
      ASSERT_EQ(mn64.element_address(mn, k, 2, true), byte ^ (((byte >> 7) & 3) << 4)) << mn << "," << k;
    }
}

TEST(SmemDescriptor, HopperVariant) {
  SmemDescriptor d{0x400, 128, 1024, 2, false, TmaSwizzle::k64B, DescriptorVariant::kHopper};
  // start 0x40; LBO 8 << 16; SBO 64 << 32; base offset 2 << 49; mode 2 (64B) << 62.
  EXPECT_EQ(d.encode(), 0x8004004000080040ull);
  SmemDescriptor back = SmemDescriptor::decode(d.encode(), DescriptorVariant::kHopper);
  EXPECT_EQ(back.swizzle, TmaSwizzle::k64B);
  EXPECT_EQ(back.base_offset, 2);
  EXPECT_EQ(back.sbo, 1024u);
  EXPECT_EQ(SmemDescriptor::decode(0x4000000000000000ull, DescriptorVariant::kHopper).swizzle, TmaSwizzle::k128B);
  EXPECT_EQ(SmemDescriptor::decode(0xC000000000000000ull, DescriptorVariant::kHopper).swizzle, TmaSwizzle::k32B);
  EXPECT_TRUE(throws_check([] { SmemDescriptor::decode(std::uint64_t{1} << 46, DescriptorVariant::kHopper); },
                           "smem.descriptor", {"must be 0"}));
  SmemDescriptor atom{0, 0, 0, 0, false, TmaSwizzle::k128BAtom32B, DescriptorVariant::kHopper};
  EXPECT_TRUE(throws_check([&] { atom.encode(); }, "smem.descriptor", {"wgmma"}));
}

TEST(SmemDescriptor, BitLayout) {
  SmemDescriptor d{0x400, 128, 1024, 0, false, TmaSwizzle::k128B};
  // start 0x400>>4 = 0x40; LBO 8 << 16; SBO 64 << 32; version 1 << 46; swizzle code 2 << 61.
  EXPECT_EQ(d.encode(), 0x4000404000080040ull);
  SmemDescriptor back = SmemDescriptor::decode(d.encode());
  EXPECT_EQ(back.start_address, 0x400u);
  EXPECT_EQ(back.lbo, 128u);
  EXPECT_EQ(back.sbo, 1024u);
  EXPECT_EQ(back.swizzle, TmaSwizzle::k128B);
  const std::pair<TmaSwizzle, std::uint64_t> codes[] = {{TmaSwizzle::kNone, 0}, {TmaSwizzle::k128BAtom32B, 1},
                                                        {TmaSwizzle::k128B, 2}, {TmaSwizzle::k64B, 4},
                                                        {TmaSwizzle::k32B, 6}};
  for (auto [m, code] : codes) {
    SmemDescriptor x{16, 16, 16, 5, false, m};
    EXPECT_EQ(x.encode() >> 61, code);
    EXPECT_EQ((x.encode() >> 49) & 7, 5u);
    EXPECT_EQ(SmemDescriptor::decode(x.encode()).swizzle, m);
  }
  EXPECT_TRUE(throws_check([] { SmemDescriptor::decode(0x6000400000000000ull); }, "smem.descriptor", {"code 3"}));
  EXPECT_TRUE(throws_check([] { SmemDescriptor::decode(0); }, "smem.descriptor", {"0b001"}));
  EXPECT_TRUE(throws_check([] { (SmemDescriptor{8, 0, 0, 0, false, TmaSwizzle::kNone}).encode(); }, "smem.descriptor",
                           {"16-byte aligned"}));
  EXPECT_TRUE(throws_check([] { (SmemDescriptor{0, 0, 0, 0, false, TmaSwizzle::k128BAtom64B}).encode(); },
                           "smem.descriptor"));
}

}  // namespace
}  // namespace tirx::hw
