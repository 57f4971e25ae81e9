// ldmatrix / stmatrix .m8n8.b16: address roles, register fragments (with and without
// .trans) executed on shared memory, stmatrix as the inverse, wavefronts. Spec §6, §8.2.
#include <gtest/gtest.h>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/hw/ldmatrix.hpp"
#include "tirx_verify/hw/swizzle.hpp"

namespace tirx::hw {
namespace {
using test::sm100;
using test::sm90;
using test::throws_check;

// Matrix j, row i lives at 1024 j + 48 i (rows need not be contiguous, only 16-byte aligned).
std::uint64_t row_addr(int j, int i) { return 1024u * j + 48u * i; }
std::uint16_t label(int j, int row, int col) { return static_cast<std::uint16_t>(j << 12 | row << 4 | col); }

SharedMemory labelled() {
  SharedMemory s(sm90());
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 8; ++i)
      for (int c = 0; c < 8; ++c) s.write_u16(row_addr(j, i) + 2 * c, label(j, i, c));
  return s;
}

std::vector<std::uint64_t> addresses(int num) {
  std::vector<std::uint64_t> a(32, 0xFFFF0);  // threads without a role pass garbage (ignored)
  for (int t = 0; t < 8 * num; ++t) a[t] = row_addr(t / 8, t % 8);
  return a;
}

TEST(Ldmatrix, RowAddressRoles) {
  EXPECT_EQ(ldmatrix_row_role({4, false}, 13).matrix, 1);
  EXPECT_EQ(ldmatrix_row_role({4, false}, 13).row, 5);
  EXPECT_EQ(ldmatrix_row_role({4, true}, 31).matrix, 3);
  EXPECT_EQ(ldmatrix_row_role({1, false}, 9).matrix, -1);
  EXPECT_EQ(ldmatrix_row_role({2, false}, 15).matrix, 1);
  EXPECT_EQ(ldmatrix_row_role({2, false}, 16).matrix, -1);
}

TEST(Ldmatrix, NonTransposedFragment) {
  SharedMemory smem = labelled();
  for (int num : {1, 2, 4}) {
    WarpRegisters r = ldmatrix(sm90(), smem, {num, false}, addresses(num));
    ASSERT_EQ(r.regs(), num);
    for (int t = 0; t < 32; ++t)
      for (int j = 0; j < num; ++j) {
        // reg j of thread t: row t>>2, columns 2(t&3) (bits 15..0) and 2(t&3)+1 (bits 31..16).
        std::uint32_t want = label(j, t >> 2, 2 * (t & 3)) | (std::uint32_t{label(j, t >> 2, 2 * (t & 3) + 1)} << 16);
        ASSERT_EQ(r.value(t, j), want) << num << " t" << t << " j" << j;
      }
  }
  // Thread 5: row 1, columns 2, 3.
  WarpRegisters r = ldmatrix(sm90(), smem, {1, false}, addresses(1));
  EXPECT_EQ(r.value(5, 0), 0x00130012u);
}

TEST(Ldmatrix, TransposedFragment) {
  SharedMemory smem = labelled();
  WarpRegisters r = ldmatrix(sm90(), smem, {4, true}, addresses(4));
  for (int t = 0; t < 32; ++t)
    for (int j = 0; j < 4; ++j) {
      // reg j of thread t: rows 2(t&3), 2(t&3)+1 of column t>>2.
      std::uint32_t want = label(j, 2 * (t & 3), t >> 2) | (std::uint32_t{label(j, 2 * (t & 3) + 1, t >> 2)} << 16);
      ASSERT_EQ(r.value(t, j), want);
    }
  EXPECT_EQ(r.value(5, 2), 0x20312021u);  // matrix 2, rows 2 and 3, column 1
}

TEST(Stmatrix, IsTheInverseOfLdmatrix) {
  for (bool trans : {false, true}) {
    SharedMemory src = labelled();
    WarpRegisters r = ldmatrix(sm100(), src, {4, trans}, addresses(4));
    SharedMemory dst(sm100());
    stmatrix(sm100(), dst, {4, trans}, addresses(4), r);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 8; ++i)
        for (int c = 0; c < 8; ++c) ASSERT_EQ(dst.read_u16(row_addr(j, i) + 2 * c), label(j, i, c));
  }
  // stmatrix from hand-made registers: thread 6 register 0 = 0xBBBBAAAA goes to row 1,
  // columns 4 (0xAAAA) and 5 (0xBBBB).
  WarpRegisters r(32, 1);
  for (int t = 0; t < 32; ++t) r.set(t, 0, 0);
  r.set(6, 0, 0xBBBBAAAAu);
  SharedMemory dst(sm90());
  stmatrix(sm90(), dst, {1, false}, addresses(1), r);
  EXPECT_EQ(dst.read_u16(row_addr(0, 1) + 8), 0xAAAA);
  EXPECT_EQ(dst.read_u16(row_addr(0, 1) + 10), 0xBBBB);
}

TEST(Ldmatrix, Errors) {
  SharedMemory smem = labelled();
  auto a = addresses(4);
  a[3] += 8;
  EXPECT_TRUE(throws_check([&] { ldmatrix(sm90(), smem, {4, false}, a); }, "smem.access", {"thread 3"}));
  EXPECT_TRUE(throws_check([&] { ldmatrix(sm90(), smem, {3, false}, addresses(4)); }, "ldmatrix.shape", {".x3"}));
  std::vector<std::uint64_t> few(16, 0);
  EXPECT_TRUE(throws_check([&] { ldmatrix(sm90(), smem, {1, false}, few); }, "ldmatrix.shape", {"32 thread"}));
  WarpRegisters wrong(32, 2);
  EXPECT_TRUE(throws_check([&] { stmatrix(sm90(), smem, {4, false}, addresses(4), wrong); }, "ldmatrix.shape"));
}

TEST(Ldmatrix, Wavefronts) {
  // x4 over 32 rows 128 bytes apart: two phases of 16 rows, all in banks 0..3: 32 (ideal 4);
  // with the 128B swizzle the rows spread over the 8 chunks: 4.
  std::vector<std::uint64_t> plain, swz;
  for (std::uint64_t i = 0; i < 32; ++i) {
    plain.push_back(128 * i);
    swz.push_back(swizzle_address(TmaSwizzle::k128B, 128 * i));
  }
  EXPECT_EQ(ldmatrix_wavefronts(sm90(), plain), (WavefrontCount{32, 4}));
  EXPECT_EQ(ldmatrix_wavefronts(sm90(), swz), (WavefrontCount{4, 4}));
  // x1 over 8 contiguous rows: one wavefront.
  std::vector<std::uint64_t> x1;
  for (std::uint64_t i = 0; i < 8; ++i) x1.push_back(16 * i);
  EXPECT_EQ(ldmatrix_wavefronts(sm90(), x1), (WavefrontCount{1, 1}));
}

}  // namespace
}  // namespace tirx::hw
