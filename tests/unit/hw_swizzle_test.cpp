// Swizzles: CuTe Swizzle<B,M,S>, TIRx ComposeLayout form, TMA modes, base alignment, and the
// seed's (8,64) float16 bank example. Spec ptx_semantics §7, tirx_semantics (f).
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/hw/swizzle.hpp"
#include "tirx_verify/layout/compose_layout.hpp"

namespace tirx::hw {
namespace {
using test::sm100;
using test::sm90;
using test::throws_check;

TEST(Swizzle, Cute343OnByteAddresses) {
  Swizzle s = Swizzle::make(3, 4, 3);
  EXPECT_EQ(s.apply(0), 0u);
  EXPECT_EQ(s.apply(128), 144u);   // line 1, chunk 0 -> chunk 1
  EXPECT_EQ(s.apply(400), 416u);   // line 3, chunk 1 -> chunk 2
  EXPECT_EQ(s.apply(1023), 1023u ^ (7u << 4));
  EXPECT_EQ(s.apply(1024 + 128), 1024u + 144u);  // the pattern repeats every 1024 bytes
  EXPECT_EQ(s.period(), 1024u);
}

TEST(Swizzle, TmaModesAreTheDocumentedFunctors) {
  struct Case { TmaSwizzle m; int b, mm, s; std::uint64_t period; int span; };
  for (Case c : {Case{TmaSwizzle::kNone, 0, 4, 3, 16, 0}, Case{TmaSwizzle::k32B, 1, 4, 3, 256, 32},
                 Case{TmaSwizzle::k64B, 2, 4, 3, 512, 64}, Case{TmaSwizzle::k128B, 3, 4, 3, 1024, 128},
                 Case{TmaSwizzle::k128BAtom32B, 2, 5, 2, 512, 128}, Case{TmaSwizzle::k128BAtom64B, 1, 6, 1, 256, 128}}) {
    EXPECT_EQ(tma_swizzle_functor(c.m), (Swizzle{c.b, c.mm, c.s})) << to_string(c.m);
    EXPECT_EQ(tma_swizzle_alignment_bytes(c.m), c.period) << to_string(c.m);
    EXPECT_EQ(tma_swizzle_span_bytes(c.m), c.span);
  }
  // Spec §7.1 closed forms for every byte of two periods.
  for (std::uint64_t a = 0; a < 2048; ++a) {
    EXPECT_EQ(swizzle_address(TmaSwizzle::k32B, a), a ^ (((a >> 7) & 1) << 4));
    EXPECT_EQ(swizzle_address(TmaSwizzle::k64B, a), a ^ (((a >> 7) & 3) << 4));
    EXPECT_EQ(swizzle_address(TmaSwizzle::k128B, a), a ^ (((a >> 7) & 7) << 4));
    EXPECT_EQ(swizzle_address(TmaSwizzle::k128BAtom32B, a), a ^ (((a >> 7) & 3) << 5));
    EXPECT_EQ(swizzle_address(TmaSwizzle::k128BAtom64B, a), a ^ (((a >> 7) & 1) << 6));
    EXPECT_EQ(swizzle_address(TmaSwizzle::kNone, a), a);
  }
  EXPECT_EQ(swizzle_address(TmaSwizzle::k128BAtom32B, 384), 480u);  // line 3: 32-byte chunk 0 -> 3
}

TEST(Swizzle, BijectionOnEveryPeriodAndInvolution) {
  std::vector<Swizzle> all = {Swizzle::make(1, 4, 3), Swizzle::make(2, 4, 3), Swizzle::make(3, 4, 3),
                              Swizzle::make(2, 5, 2), Swizzle::make(1, 6, 1), Swizzle::make(3, 3, 3),
                              Swizzle::make(2, 0, -3), Swizzle::make(3, 1, -4), Swizzle::make(0, 4, 3)};
  for (const Swizzle& s : all) {
    for (std::uint64_t block : {0ull, 3ull}) {
      std::set<std::uint64_t> image;
      std::uint64_t p = s.period();
      for (std::uint64_t a = block * p; a < (block + 1) * p; ++a) {
        std::uint64_t y = s.apply(a);
        EXPECT_GE(y, block * p);
        EXPECT_LT(y, (block + 1) * p);
        EXPECT_EQ(s.apply(y), a);
        image.insert(y);
      }
      EXPECT_EQ(image.size(), p) << s.b << "," << s.m << "," << s.s;
    }
  }
}

TEST(Swizzle, IllFormedParameters) {
  EXPECT_TRUE(throws_check([] { Swizzle::make(3, 4, 2); }, "swizzle.legal", {"Swizzle<3,4,2>"}));
  EXPECT_TRUE(throws_check([] { Swizzle::make(-1, 4, 3); }, "swizzle.legal"));
  EXPECT_TRUE(throws_check([] { Swizzle::make(2, -1, 3); }, "swizzle.legal"));
  EXPECT_TRUE(throws_check([] { (ComposeSwizzle{0, 3, 2, true}).as_cute(); }, "swizzle.legal", {"ComposeLayout(0, 3, 2)"}));
  EXPECT_TRUE(throws_check([] { Swizzle::make(3, 4, 3).for_elements(5); }, "swizzle.legal"));
}

TEST(Swizzle, ByteAndElementForms) {
  // 128B swizzle on fp16 element addresses is Swizzle<3,3,3>; on fp32 Swizzle<3,2,3>.
  EXPECT_EQ(Swizzle::make(3, 4, 3).for_elements(1), (Swizzle{3, 3, 3}));
  EXPECT_EQ(Swizzle::make(3, 4, 3).for_elements(2), (Swizzle{3, 2, 3}));
  Swizzle bytes = Swizzle::make(3, 4, 3), elems = bytes.for_elements(1);
  for (std::uint64_t e = 0; e < 4096; ++e) EXPECT_EQ(bytes.apply(2 * e), 2 * elems.apply(e));
}

TEST(ComposeSwizzle, TirxWorkedExamples) {
  ComposeSwizzle s033{0, 3, 3, true};
  for (std::uint64_t i = 0; i < 8; ++i)
    for (std::uint64_t j = 0; j < 8; ++j) EXPECT_EQ(s033.apply(8 * i + j), 8 * i + (i ^ j));
  EXPECT_EQ((ComposeSwizzle{0, 3, 3, false}).apply(29), 53u);
  EXPECT_EQ((ComposeSwizzle{0, 2, 3, true}).apply(30), 29u);
  EXPECT_EQ((ComposeSwizzle{3, 3, 3, true}).apply(234), 242u);
  EXPECT_EQ((ComposeSwizzle{3, 3, 3, true}).period(), 512u);
  // swizzle_inner=False is Swizzle<B,M,-S>.
  EXPECT_EQ((ComposeSwizzle{1, 2, 3, false}).as_cute(), (Swizzle{2, 1, -3}));
}

TEST(ComposeSwizzle, AgreesWithTheLayoutModulesIndependentImplementation) {
  for (int pe = 0; pe <= 4; ++pe)
    for (int b = 0; b <= 3; ++b)
      for (int s = b; s <= 4; ++s)
        for (bool inner : {true, false}) {
          ComposeSwizzle hw{pe, b, s, inner};
          SwizzleSpec layout{pe, b, s, inner};
          std::uint64_t p = hw.period();
          for (std::uint64_t m = 0; m < 2 * p; m += 1 + p / 97)
            ASSERT_EQ(hw.apply(m), static_cast<std::uint64_t>(layout.apply(static_cast<std::int64_t>(m))))
                << pe << b << s << inner << " m=" << m;
        }
}

TEST(Swizzle, SeedBankExampleFloat16Column0) {
  // (8,64) float16 tile, row pitch 128 bytes; element (i, 0) at byte 128 i.
  for (const Target* t : {&sm90(), &sm100()}) {
    std::vector<int> with, without;
    for (std::uint64_t i = 0; i < 8; ++i) {
      with.push_back(bank_of(*t, swizzle_address(TmaSwizzle::k128B, 128 * i)));
      without.push_back(bank_of(*t, 128 * i));
    }
    EXPECT_EQ(with, (std::vector<int>{0, 4, 8, 12, 16, 20, 24, 28}));
    EXPECT_EQ(without, (std::vector<int>(8, 0)));
    // The same through the TIRx element form ComposeLayout(3,3,3): addr(i,0) = 64 i + 8 i.
    for (std::uint64_t i = 0; i < 8; ++i)
      EXPECT_EQ(bank_of(*t, 2 * (ComposeSwizzle{3, 3, 3, true}).apply(64 * i)), static_cast<int>(4 * i));
  }
}

TEST(Swizzle, BaseAlignmentToThePeriod) {
  EXPECT_NO_THROW(check_swizzle_base_alignment(TmaSwizzle::k128B, 2048));
  EXPECT_TRUE(throws_check([] { check_swizzle_base_alignment(TmaSwizzle::k128B, 1024 + 384); }, "swizzle.legal",
                           {"1024 bytes", "phase 3"}));
  EXPECT_NO_THROW(check_swizzle_base_alignment(TmaSwizzle::k32B, 256));
  EXPECT_TRUE(throws_check([] { check_swizzle_base_alignment(TmaSwizzle::k32B, 128); }, "swizzle.legal",
                           {"256 bytes", "phase 1"}));
  EXPECT_TRUE(throws_check([] { check_swizzle_base_alignment(TmaSwizzle::k128BAtom32B, 256); }, "swizzle.legal",
                           {"512 bytes"}));
  EXPECT_TRUE(throws_check([] { check_swizzle_base_alignment(TmaSwizzle::kNone, 8); }, "swizzle.legal", {"16-byte"}));
}

TEST(Swizzle, ParseModes) {
  EXPECT_EQ(parse_tma_swizzle("128B"), TmaSwizzle::k128B);
  EXPECT_EQ(parse_tma_swizzle("none"), TmaSwizzle::kNone);
  EXPECT_EQ(parse_tma_swizzle("128b_atom_32b"), TmaSwizzle::k128BAtom32B);
  EXPECT_EQ(parse_tma_swizzle("CU_TENSOR_MAP_SWIZZLE_64B"), TmaSwizzle::k64B);
  EXPECT_TRUE(throws_check([] { parse_tma_swizzle("128B_ATOM_32B_FLIP_8B"); }, "swizzle.legal", {"unverified"}));
  EXPECT_TRUE(throws_check([] { parse_tma_swizzle("256B"); }, "swizzle.legal", {"unknown"}));
}

}  // namespace
}  // namespace tirx::hw
