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

// --- Patterns of the readback campaign (tests/golden/hw/h200_banks.json) that separate the
// --- uniform-pair shortcut from other explanations -------------------------------------

SmemAccess from(int width, std::initializer_list<std::uint64_t> first, int period, bool store = false) {
  // Thread t gets first[t % k] + period * (t / k), k = first.size(): repeated groups.
  SmemAccess a;
  a.width_bytes = width;
  a.is_store = store;
  std::vector<std::uint64_t> f(first);
  for (int t = 0; t < 32; ++t) a.addresses.push_back(f[t % f.size()] + static_cast<std::uint64_t>(period) * (t / f.size()));
  return a;
}

TEST(H200Measured, UniformPairLoadsMergePhases) {
  EXPECT_EQ(wf(from(16, {0, 0}, 16)), (WavefrontCount{2, 2}));           // ld16 T(n)==T(n^1)
  EXPECT_EQ(wf(from(16, {0, 16, 0, 16}, 32)), (WavefrontCount{2, 2}));   // ld16 T(n)==T(n^2)
  EXPECT_EQ(wf(from(16, {0, 0, 0, 0}, 16)), (WavefrontCount{2, 2}));     // ld16 quads share a chunk
  EXPECT_EQ(wf(from(8, {0, 0}, 8)), (WavefrontCount{1, 1}));             // ld8 T(n)==T(n^1)
  EXPECT_EQ(wf(from(8, {0, 8, 0, 8}, 16)), (WavefrontCount{1, 1}));      // ld8 T(n)==T(n^2)
  WavefrontCount c = wf(from(16, {0, 0}, 128));                          // pairs, 16 chunks in banks 0-3
  EXPECT_EQ(c.wavefronts, 16);
  EXPECT_EQ(c.excess(), 14);
  c = wf(from(8, {0, 0}, 128));                                          // pairs, 16 words in banks 0-1
  EXPECT_EQ(c.wavefronts, 16);
  EXPECT_EQ(c.excess(), 15);
}

TEST(H200Measured, OtherRepeatsDoNotMerge) {
  SmemAccess a = strided(16, 16);
  for (int t = 0; t < 32; ++t) a.addresses[t] = 16 * ((t % 4) + 4 * (t / 8));  // T(n)==T(n^4)
  EXPECT_EQ(wf(a), (WavefrontCount{4, 4}));
  for (int t = 0; t < 32; ++t) a.addresses[t] = 16 * (t % 16);  // T(n)==T(n^16)
  EXPECT_EQ(wf(a), (WavefrontCount{4, 4}));
  for (int t = 0; t < 32; ++t) a.addresses[t] = 16 * (t % 8);  // all quarter-warps read one line
  EXPECT_EQ(wf(a), (WavefrontCount{4, 4}));
  const std::uint64_t x3[] = {0, 16, 16, 0};  // T(n)==T(n^3)
  for (int t = 0; t < 32; ++t) a.addresses[t] = x3[t % 4] + 64 * (t / 4);
  EXPECT_EQ(wf(a), (WavefrontCount{4, 4}));
  SmemAccess h = strided(8, 8);
  for (int t = 16; t < 32; ++t) h.addresses[t] = h.addresses[t - 16];  // ld8 T(n)==T(n^16)
  EXPECT_EQ(wf(h), (WavefrontCount{2, 2}));
  // Pairs everywhere but lane 31: no shortcut (the condition is warp-wide).
  SmemAccess p = from(16, {0, 0}, 16);
  p.addresses[31] = 256;
  EXPECT_EQ(wf(p), (WavefrontCount{4, 4}));
  SmemAccess q = from(8, {0, 0}, 8);
  q.addresses[31] = 128;
  EXPECT_EQ(wf(q), (WavefrontCount{2, 2}));
  // One k for the whole warp: n^1 pairs in the first half, n^2 in the second: no shortcut.
  SmemAccess mixed = from(16, {0, 0}, 16);
  for (int t = 16; t < 32; ++t) mixed.addresses[t] = 128 + 16 * (((t - 16) / 4) * 2 + t % 2);
  EXPECT_EQ(wf(mixed), (WavefrontCount{4, 4}));
}

TEST(H200Measured, InactivePartnersDoNotBreakTheShortcut) {
  SmemAccess a = from(16, {0, 0}, 16);
  a.active_mask = 0xFFFFFFFDu;  // lane 1 off
  EXPECT_EQ(wf(a), (WavefrontCount{2, 2}));
  // Even lanes only, contiguous: every pair is half inactive, so the phases merge — and the
  // merged phase conflicts (lines 0 and 1 share banks): 4 wavefronts, 2 of them excess.
  SmemAccess e = strided(16, 16);
  e.active_mask = 0x55555555u;
  EXPECT_EQ(wf(e), (WavefrontCount{4, 2}));
  SmemAccess e8 = strided(8, 8);
  e8.active_mask = 0x55555555u;
  EXPECT_EQ(wf(e8), (WavefrontCount{2, 1}));
}

TEST(H200Measured, StoresNeverMerge) {
  EXPECT_EQ(wf(from(16, {0}, 0, true)), (WavefrontCount{4, 4}));     // st16 broadcast
  EXPECT_EQ(wf(from(16, {0, 0}, 16, true)), (WavefrontCount{4, 4})); // st16 pairs
  EXPECT_EQ(wf(from(8, {0, 0}, 8, true)), (WavefrontCount{2, 2}));   // st8 pairs
}

TEST(H200Measured, LdmatrixRowsArePhasedPerMatrix) {
  std::vector<std::uint64_t> same(32, 0);
  EXPECT_EQ(ldmatrix_wavefronts(sm90(), same), (WavefrontCount{4, 4}));  // ldsm_x4_same_row
  std::vector<std::uint64_t> rows64;
  for (std::uint64_t i = 0; i < 32; ++i) rows64.push_back(64 * i);
  WavefrontCount c = ldmatrix_wavefronts(sm90(), rows64);  // ldsm_x4_rows64_noswz
  EXPECT_EQ(c.wavefronts, 16);
  EXPECT_EQ(c.excess(), 12);
}

// --- The textbook model disagrees exactly on the uniform-pair loads --------------------

TEST(Banks, TextbookPhasesDifferOnlyOnUniformPairLoads) {
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
  EXPECT_EQ(phase_threads(sm90(), strided(16, 0)), 16);
  EXPECT_EQ(phase_threads(sm90(), strided(8, 0)), 32);
  EXPECT_EQ(phase_threads(sm90(), strided(16, 16)), 8);
}

TEST(Banks, EightByteAccessesUnderTheModel) {
  EXPECT_EQ(wf(strided(8, 8)), (WavefrontCount{2, 2}));    // 256 contiguous bytes
  EXPECT_EQ(wf(strided(8, 16)), (WavefrontCount{4, 2}));   // every other 8 bytes
  EXPECT_EQ(wf(strided(8, 32)), (WavefrontCount{8, 2}));
  EXPECT_EQ(wf(strided(8, 128)), (WavefrontCount{32, 2}));
  EXPECT_EQ(wf(strided(8, 136)), (WavefrontCount{2, 2}));
}

TEST(Banks, InactiveThreadsRequestNothing) {
  SmemAccess a = strided(4, 128);
  a.active_mask = 0x0000000Fu;  // threads 0..3: 4 words in bank 0
  EXPECT_EQ(wf(a), (WavefrontCount{4, 1}));
  a.active_mask = 0;
  EXPECT_EQ(wf(a), (WavefrontCount{0, 0}));
  SmemAccess b = strided(16, 16);
  b.active_mask = 0x000000FFu;  // first quarter-warp only (ld16_partial_q0): one phase
  EXPECT_EQ(wf(b), (WavefrontCount{1, 1}));
  b.active_mask = 0xFFFF0000u;  // second half-warp only: two phases of 128 bytes
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
    // Addresses from a small window so that collisions and broadcasts happen; every fourth
    // access is made uniform-pair so the shortcut is exercised too.
    std::uint64_t window = 64u << (rng() % 6);
    for (int t = 0; t < 32; ++t) a.addresses.push_back((rng() % window) / width * width);
    if (iter % 4 == 1)
      for (int t = 0; t < 32; ++t) a.addresses[t] = a.addresses[t & ~(1 + (iter / 4) % 2)];
    a.active_mask = (iter % 5 == 0) ? rng() & 0xFFFFFFFFu : 0xFFFFFFFFu;
    for (const Target* tg : {&sm90(), &sm100()}) {
      WavefrontCount model = count_wavefronts(*tg, a);
      WavefrontCount ref = count_wavefronts_reference(*tg, a, phase_threads(*tg, a));
      ASSERT_EQ(model, ref) << "iter " << iter;
      a.is_store = true;  // a store never takes the shortcut: the textbook phases
      ASSERT_EQ(count_wavefronts(*tg, a), count_wavefronts_reference(*tg, a, textbook_phase_threads(*tg, width)));
      a.is_store = false;
      // A wavefront serves at most one word per bank: never below the ideal.
      ASSERT_GE(model.excess(), 0);
      // Merging phases never costs more than the textbook phases.
      ASSERT_LE(model.wavefronts,
                count_wavefronts_reference(*tg, a, textbook_phase_threads(*tg, width)).wavefronts);
    }
  }
}

TEST(Banks, RecalibrationIsADataChange) {
  // Without the shortcut in the target file the 16-byte broadcast costs the textbook 4.
  Target t = sm90();
  t.wavefront.uniform_pair_widths.clear();
  EXPECT_EQ(count_wavefronts(t, strided(16, 0)).wavefronts, 4);
  t = sm90();
  t.wavefront.uniform_pair_xor = {16};
  SmemAccess h = strided(8, 8);
  for (int t2 = 16; t2 < 32; ++t2) h.addresses[t2] = h.addresses[t2 - 16];
  EXPECT_EQ(count_wavefronts(t, h).wavefronts, 1);
}

}  // namespace
}  // namespace tirx::hw
