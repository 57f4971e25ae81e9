// Shared-memory wavefronts: every H200 measurement of spec §6.x / shared/examples/README.md,
// the calibrated model against the brute-force reference, and the model's invariants.
#include <gtest/gtest.h>

#include <random>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/hw/swizzle.hpp"

namespace tirx::hw {
namespace {
using test::sm100;
using test::sm90;
using test::throws_check;

SmemAccess strided(int width, std::uint64_t stride_bytes, std::uint64_t base = 0) {
  SmemAccess a;
  a.width_bytes = width;
  for (std::uint64_t t = 0; t < 32; ++t) a.addresses.push_back(base + t * stride_bytes);
  return a;
}

WavefrontCount wf(const SmemAccess& a) { return count_wavefronts(sm90(), a); }

TEST(Banks, BankOfAddress) {
  EXPECT_EQ(bank_of(sm90(), 0), 0);
  EXPECT_EQ(bank_of(sm90(), 4), 1);
  EXPECT_EQ(bank_of(sm90(), 127), 31);
  EXPECT_EQ(bank_of(sm90(), 128), 0);
  EXPECT_EQ(bank_of(sm100(), 1000), 26);
}

// --- The H200 measurements (2026-11-30), one test each ---------------------------------

TEST(H200Measured, FourByteContiguousIsOneWavefront) {
  EXPECT_EQ(wf(strided(4, 4)), (WavefrontCount{1, 1}));
}

TEST(H200Measured, FourByteStride8BytesIsTwo) {
  EXPECT_EQ(wf(strided(4, 8)), (WavefrontCount{2, 1}));
}

TEST(H200Measured, FourByteWordStrides1_2_8_32_33) {
  const int strides[] = {1, 2, 8, 32, 33}, want[] = {1, 2, 8, 32, 1};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(wf(strided(4, 4u * strides[i])).wavefronts, want[i]) << strides[i];
}

TEST(H200Measured, ProbeKernelTotalsOver64Loads) {
  // smem_stride<<<1,32>>>: load k (0..63) of thread t reads float s[(t*stride + k) % 4224].
  // ncu: 64, 128, 512, 2048, 64 wavefronts; 0, 64, 448, 1984, 0 bank conflicts.
  const int strides[] = {1, 2, 8, 32, 33};
  const int want_wf[] = {64, 128, 512, 2048, 64}, want_conf[] = {0, 64, 448, 1984, 0};
  for (int i = 0; i < 5; ++i) {
    int total = 0, conflicts = 0;
    for (std::uint64_t k = 0; k < 64; ++k) {
      SmemAccess a;
      a.width_bytes = 4;
      for (std::uint64_t t = 0; t < 32; ++t) a.addresses.push_back(4 * ((t * strides[i] + k) % (32 * 33 * 4)));
      WavefrontCount c = wf(a);
      total += c.wavefronts;
      conflicts += c.excess();
    }
    EXPECT_EQ(total, want_wf[i]) << strides[i];
    EXPECT_EQ(conflicts, want_conf[i]) << strides[i];
  }
}

TEST(H200Measured, FourByteStride128BytesIs32) {
  EXPECT_EQ(wf(strided(4, 128)), (WavefrontCount{32, 1}));
}

TEST(H200Measured, SixteenByteContiguousIsFour) {
  EXPECT_EQ(wf(strided(16, 16)), (WavefrontCount{4, 4}));
}

TEST(H200Measured, SixteenByteRows128BytesApartIs32With28Conflicts) {
  WavefrontCount c = wf(strided(16, 128));
  EXPECT_EQ(c.wavefronts, 32);
  EXPECT_EQ(c.excess(), 28);
}

TEST(H200Measured, SameRowsWith128BSwizzleAreFour) {
  SmemAccess a;
  a.width_bytes = 16;
  for (std::uint64_t t = 0; t < 32; ++t) a.addresses.push_back(swizzle_address(TmaSwizzle::k128B, 128 * t));
  EXPECT_EQ(wf(a), (WavefrontCount{4, 4}));
}

TEST(H200Measured, LdmatrixX4Over16ByteRowsIsFour) {
  std::vector<std::uint64_t> rows;
  for (std::uint64_t i = 0; i < 32; ++i) rows.push_back(16 * i);
  EXPECT_EQ(ldmatrix_wavefronts(sm90(), rows), (WavefrontCount{4, 4}));
}

TEST(H200Measured, EightByteAllOneAddressIsOne) {
  EXPECT_EQ(wf(strided(8, 0, 256)), (WavefrontCount{1, 1}));
}

TEST(H200Measured, SixteenByteAllOneAddressIsTwo) {
  EXPECT_EQ(wf(strided(16, 0, 256)), (WavefrontCount{2, 2}));
}

// --- The textbook model disagrees exactly on the last two ------------------------------

TEST(Banks, TextbookPhasesDifferOnlyOnTheWideBroadcasts) {
  auto textbook = [](const SmemAccess& a) {
    return count_wavefronts_reference(sm90(), a, textbook_phase_threads(sm90(), a.width_bytes)).wavefronts;
  };
  EXPECT_EQ(textbook_phase_threads(sm90(), 4), 32);
  EXPECT_EQ(textbook_phase_threads(sm90(), 8), 16);
  EXPECT_EQ(textbook_phase_threads(sm90(), 16), 8);
  EXPECT_EQ(textbook(strided(8, 0)), 2);
  EXPECT_EQ(textbook(strided(16, 0)), 4);
  EXPECT_EQ(textbook(strided(16, 16)), 4);
  EXPECT_EQ(textbook(strided(16, 128)), 32);
}

TEST(Banks, EightByteAccessesUnderTheCalibratedModel) {
  EXPECT_EQ(wf(strided(8, 8)), (WavefrontCount{2, 2}));   // 256 contiguous bytes
  EXPECT_EQ(wf(strided(8, 16)), (WavefrontCount{4, 2}));  // every other 8 bytes: 4 words per bank
  // Threads 16..31 repeat threads 0..15: one 128-byte line, 1 wavefront (textbook: 2).
  SmemAccess a = strided(8, 8);
  for (int t = 16; t < 32; ++t) a.addresses[t] = a.addresses[t - 16];
  EXPECT_EQ(wf(a), (WavefrontCount{1, 1}));
}

TEST(Banks, InactiveThreadsRequestNothing) {
  SmemAccess a = strided(4, 128);
  a.active_mask = 0x0000000Fu;  // threads 0..3: 4 words in bank 0
  EXPECT_EQ(wf(a), (WavefrontCount{4, 1}));
  a.active_mask = 0;
  EXPECT_EQ(wf(a), (WavefrontCount{0, 0}));
  SmemAccess b = strided(16, 16);
  b.active_mask = 0xFFFF0000u;  // second half-warp only: one phase of 256 bytes
  EXPECT_EQ(wf(b), (WavefrontCount{2, 2}));
}

TEST(Banks, BadAccessesAreRejected) {
  EXPECT_TRUE(throws_check([] { wf(strided(2, 2)); }, "smem.access", {"width 2"}));
  EXPECT_TRUE(throws_check([] { wf(strided(8, 4)); }, "smem.access", {"thread 1", "8-byte"}));
  SmemAccess a = strided(4, 4);
  a.addresses.pop_back();
  EXPECT_TRUE(throws_check([&] { wf(a); }, "smem.access", {"32 addresses"}));
  std::vector<std::uint64_t> rows(32, 8);
  EXPECT_TRUE(throws_check([&] { ldmatrix_wavefronts(sm90(), rows); }, "smem.access", {"16-byte aligned"}));
  std::vector<std::uint64_t> seven(7, 0);
  EXPECT_TRUE(throws_check([&] { ldmatrix_wavefronts(sm90(), seven); }, "smem.access", {"got 7"}));
}

TEST(Banks, ModelMatchesBruteForceReferenceAndBounds) {
  std::mt19937_64 rng(12345);
  for (int iter = 0; iter < 3000; ++iter) {
    int width = 4 << (iter % 3);
    SmemAccess a;
    a.width_bytes = width;
    // Addresses from a small window so that collisions and broadcasts happen.
    std::uint64_t window = 64u << (rng() % 6);
    for (int t = 0; t < 32; ++t) a.addresses.push_back((rng() % window) / width * width);
    a.active_mask = (iter % 5 == 0) ? rng() & 0xFFFFFFFFu : 0xFFFFFFFFu;
    for (const Target* tg : {&sm90(), &sm100()}) {
      WavefrontCount model = count_wavefronts(*tg, a);
      WavefrontCount ref = count_wavefronts_reference(*tg, a, tg->wavefront.phase_threads.at(width));
      ASSERT_EQ(model, ref) << "iter " << iter;
      // A wavefront serves at most one word per bank: never below the ideal.
      ASSERT_GE(model.excess(), 0);
      // Merging phases never costs more than the textbook phases.
      ASSERT_LE(model.wavefronts,
                count_wavefronts_reference(*tg, a, textbook_phase_threads(*tg, width)).wavefronts);
    }
  }
}

TEST(Banks, RecalibrationIsADataChange) {
  // A target whose 16-byte phases are quarter-warps (the textbook) gives 4 for the broadcast.
  Target t = sm90();
  t.wavefront.phase_threads[16] = 8;
  EXPECT_EQ(count_wavefronts(t, strided(16, 0)).wavefronts, 4);
}

}  // namespace
}  // namespace tirx::hw
