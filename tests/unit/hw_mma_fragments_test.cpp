// mma.sync m16n8k16 and wgmma m64nNk16 fragments (spec §8), checked against the spec's
// closed forms, CuTe's layouts (evaluated here as plain stride arithmetic), and ldmatrix
// feeding mma.sync executed in the simulator.
#include <gtest/gtest.h>

#include <set>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/ldmatrix.hpp"
#include "tirx_verify/hw/mma_fragments.hpp"

namespace tirx::hw {
namespace {
using test::sm90;
using test::throws_check;
using RC = RowCol;

TEST(MmaSync, SpecExampleThread5) {
  const RC a[] = {{1, 2}, {1, 3}, {9, 2}, {9, 3}, {1, 10}, {1, 11}, {9, 10}, {9, 11}};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(mma_m16n8k16_a(5, i), a[i]) << i;
  const RC b[] = {{2, 1}, {3, 1}, {10, 1}, {11, 1}};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(mma_m16n8k16_b(5, i), b[i]) << i;
  const RC c[] = {{1, 2}, {1, 3}, {9, 2}, {9, 3}};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(mma_m16n8k16_c(5, i), c[i]) << i;
}

// m16n8k8 (PTX ISA 9.1 §9.7.14.5.7): thread 5 (g 1, q 1) holds A (1,2),(1,3),(9,2),(9,3) and
// B (k, n) (2,1),(3,1); every thread's elements are the k < 8 half of its m16n8k16 ones.
TEST(MmaSync, M16n8k8ThreadsAndHalfOfK16) {
  const RC a[] = {{1, 2}, {1, 3}, {9, 2}, {9, 3}};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(mma_m16n8k8_a(5, i), a[i]) << i;
  EXPECT_EQ(mma_m16n8k8_b(5, 0), (RC{2, 1}));
  EXPECT_EQ(mma_m16n8k8_b(5, 1), (RC{3, 1}));
  std::set<std::pair<int, int>> as, bs;
  for (int t = 0; t < 32; ++t) {
    for (int i = 0; i < kMmaK8AElems; ++i) {
      const RC e = mma_m16n8k8_a(t, i);
      EXPECT_LT(e.col, 8);
      as.insert({e.row, e.col});
    }
    for (int i = 0; i < kMmaK8BElems; ++i) {
      const RC e = mma_m16n8k8_b(t, i);
      EXPECT_LT(e.row, 8);
      bs.insert({e.row, e.col});
    }
  }
  EXPECT_EQ(as.size(), 16u * 8u);  // each A element once
  EXPECT_EQ(bs.size(), 8u * 8u);   // each B element once
  EXPECT_TRUE(throws_check([] { mma_m16n8k8_a(0, 4); }, "mma.shape"));
  EXPECT_TRUE(throws_check([] { mma_m16n8k8_b(0, 2); }, "mma.shape"));
}

// CuTe layouts (spec §8.1), thread index T = t0 + 4 t1, value v = v0 + 2 v1 + 4 v2, offsets
// into column-major tiles.
TEST(MmaSync, MatchesCuteLayouts) {
  for (int t = 0; t < 32; ++t) {
    int t0 = t % 4, t1 = t / 4;
    for (int v = 0; v < 8; ++v) {  // A ((4,8),(2,2,2)):((32,1),(16,8,128)) over 16x16
      int off = 32 * t0 + t1 + 16 * (v % 2) + 8 * ((v / 2) % 2) + 128 * (v / 4);
      EXPECT_EQ(mma_m16n8k16_a(t, v), (RC{off % 16, off / 16}));
    }
    for (int v = 0; v < 4; ++v) {  // B ((4,8),(2,2)):((16,1),(8,64)) over N x K = 8 x 16
      int off = 16 * t0 + t1 + 8 * (v % 2) + 64 * (v / 2);
      EXPECT_EQ(mma_m16n8k16_b(t, v), (RC{off / 8, off % 8}));  // (k, n)
    }
    for (int v = 0; v < 4; ++v) {  // C ((4,8),(2,2)):((32,1),(16,8)) over 16x8
      int off = 32 * t0 + t1 + 16 * (v % 2) + 8 * (v / 2);
      EXPECT_EQ(mma_m16n8k16_c(t, v), (RC{off % 16, off / 16}));
    }
  }
}

TEST(Wgmma, AccumulatorMatchesCuteAndCoversTheTile) {
  for (int N : {8, 64, 256}) {
    std::set<std::pair<int, int>> seen;
    for (int w = 0; w < 4; ++w)
      for (int t = 0; t < 32; ++t)
        for (int i = 0; i < N / 2; ++i) {
          RC rc = wgmma_m64nNk16_d(w, t, i, N);
          // ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)) over column-major 64 x N.
          int off = 128 * (t % 4) + (t / 4) + 16 * w + 64 * (i % 2) + 8 * ((i / 2) % 2) + 512 * (i / 4);
          ASSERT_EQ(rc, (RC{off % 64, off / 64})) << N << " w" << w << " t" << t << " i" << i;
          ASSERT_TRUE(seen.insert({rc.row, rc.col}).second);
        }
    EXPECT_EQ(static_cast<int>(seen.size()), 64 * N);
  }
  EXPECT_EQ(wgmma_m64nNk16_d(2, 5, 6, 64), (RC{41, 10}));
}

TEST(Wgmma, AFromRegistersIsMmaSyncAPerWarpSlab) {
  for (int w = 0; w < 4; ++w)
    for (int t = 0; t < 32; ++t)
      for (int i = 0; i < 8; ++i) {
        RC rc = wgmma_m64nNk16_a(w, t, i);
        // ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)) over column-major 64 x 16.
        int off = 128 * (t % 4) + (t / 4) + 16 * w + 64 * (i % 2) + 8 * ((i / 2) % 2) + 512 * (i / 4);
        ASSERT_EQ(rc, (RC{off % 64, off / 64}));
      }
}

TEST(MmaSync, LdmatrixX4FeedsTheAFragment) {
  // Row-major 16x16 fp16 A at byte 0 (row pitch 32 B); thread t passes &A[t % 16][8 (t / 16)].
  SharedMemory smem(sm90());
  auto a_val = [](int r, int c) { return static_cast<std::uint16_t>(0x100 * r + c); };
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) smem.write_u16(static_cast<std::uint64_t>(32 * r + 2 * c), a_val(r, c));
  std::vector<std::uint64_t> addr;
  for (int t = 0; t < 32; ++t) addr.push_back(static_cast<std::uint64_t>(32 * (t % 16) + 16 * (t / 16)));
  WarpRegisters regs = ldmatrix(sm90(), smem, {4, false}, addr);
  for (int t = 0; t < 32; ++t)
    for (int i = 0; i < 8; ++i) {
      RC rc = mma_m16n8k16_a(t, i);
      std::uint16_t got = static_cast<std::uint16_t>(regs.value(t, i / 2) >> (16 * (i % 2)));
      ASSERT_EQ(got, a_val(rc.row, rc.col)) << "t" << t << " i" << i;
    }
}

TEST(MmaSync, LdmatrixX2FeedsTheBFragmentBothStorageOrders) {
  auto b_val = [](int k, int n) { return static_cast<std::uint16_t>(0x100 * k + n); };
  // N x K storage (K contiguous, pitch 32 B): thread t (0..15) passes &B[n = t & 7][k = 8 (t >> 3)].
  SharedMemory nk(sm90());
  for (int n = 0; n < 8; ++n)
    for (int k = 0; k < 16; ++k) nk.write_u16(static_cast<std::uint64_t>(32 * n + 2 * k), b_val(k, n));
  std::vector<std::uint64_t> a1(32, 0);
  for (int t = 0; t < 16; ++t) a1[t] = static_cast<std::uint64_t>(32 * (t & 7) + 16 * (t >> 3));
  WarpRegisters r1 = ldmatrix(sm90(), nk, {2, false}, a1);
  // K x N storage (N contiguous, pitch 16 B): .x2.trans, thread t passes &B[k = t & 15][0].
  SharedMemory kn(sm90());
  for (int k = 0; k < 16; ++k)
    for (int n = 0; n < 8; ++n) kn.write_u16(static_cast<std::uint64_t>(16 * k + 2 * n), b_val(k, n));
  std::vector<std::uint64_t> a2(32, 0);
  for (int t = 0; t < 16; ++t) a2[t] = static_cast<std::uint64_t>(16 * t);
  WarpRegisters r2 = ldmatrix(sm90(), kn, {2, true}, a2);
  for (int t = 0; t < 32; ++t)
    for (int i = 0; i < 4; ++i) {
      RC kn_rc = mma_m16n8k16_b(t, i);
      std::uint16_t want = b_val(kn_rc.row, kn_rc.col);
      ASSERT_EQ(static_cast<std::uint16_t>(r1.value(t, i / 2) >> (16 * (i % 2))), want) << t << "," << i;
      ASSERT_EQ(static_cast<std::uint16_t>(r2.value(t, i / 2) >> (16 * (i % 2))), want) << t << "," << i;
    }
}

TEST(MmaFragments, Errors) {
  EXPECT_TRUE(throws_check([] { mma_m16n8k16_a(32, 0); }, "mma.shape", {"thread 32"}));
  EXPECT_TRUE(throws_check([] { mma_m16n8k16_b(0, 4); }, "mma.shape", {"element 4"}));
  EXPECT_TRUE(throws_check([] { wgmma_m64nNk16_d(0, 0, 0, 12); }, "mma.shape", {"N = 12"}));
  EXPECT_TRUE(throws_check([] { wgmma_m64nNk16_d(4, 0, 0, 64); }, "mma.shape", {"warp 4"}));
  EXPECT_TRUE(throws_check([] { wgmma_m64nNk16_d(0, 0, 32, 64); }, "mma.shape", {"element 32"}));
}

}  // namespace
}  // namespace tirx::hw
