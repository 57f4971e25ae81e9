// MMA kinds (src/hw/mma_kinds.cpp) and the bit-addressed canonical layouts of
// SmemDescriptor::element_bit_address (src/hw/smem_descriptor.cpp).
#include <gtest/gtest.h>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/mma_kinds.hpp"
#include "tirx_verify/hw/smem_descriptor.hpp"
#include "tirx_verify/hw/swizzle.hpp"

namespace tirx::hw {
namespace {

using test::throws_check;

TEST(MmaKinds, KPerInstructionFollowsTable39) {
  EXPECT_EQ(tcgen05_mma_k(parse_mma_kind("f16"), false), 16);
  EXPECT_EQ(tcgen05_mma_k(parse_mma_kind("tf32"), false), 8);
  EXPECT_EQ(tcgen05_mma_k(parse_mma_kind("f8f6f4"), false), 32);
  EXPECT_EQ(tcgen05_mma_k(parse_mma_kind("i8"), false), 32);
  EXPECT_EQ(tcgen05_mma_k(parse_mma_kind(".kind::mxf8f6f4"), false), 32);
  EXPECT_EQ(tcgen05_mma_k(parse_mma_kind("mxf4"), false), 64);
  EXPECT_EQ(tcgen05_mma_k(parse_mma_kind("mxf4nvf4"), true), 128);
  EXPECT_EQ(tcgen05_mma_k(parse_mma_kind("f16"), true), 32);
  EXPECT_TRUE(throws_check([] { parse_mma_kind("f32"); }, "tcgen05.shape", {"unknown tcgen05.mma kind 'f32'"}));
  EXPECT_EQ(to_string(parse_mma_kind("mxf4nvf4")), "mxf4nvf4");
  EXPECT_TRUE(is_block_scaled(MmaKind::kMxF4));
  EXPECT_FALSE(is_block_scaled(MmaKind::kF8F6F4));
}

TEST(MmaKinds, OperandTypesFollowTable42) {
  EXPECT_TRUE(tcgen05_kind_accepts(MmaKind::kF16, MmaOperand::kA, "bfloat16"));
  EXPECT_FALSE(tcgen05_kind_accepts(MmaKind::kF16, MmaOperand::kA, "float32"));
  EXPECT_TRUE(tcgen05_kind_accepts(MmaKind::kF16, MmaOperand::kD, "float16"));
  EXPECT_FALSE(tcgen05_kind_accepts(MmaKind::kF8F6F4, MmaOperand::kD, "float16"));  // F32 only
  EXPECT_TRUE(tcgen05_kind_accepts(MmaKind::kF8F6F4, MmaOperand::kB, "float4_e2m1fn"));
  EXPECT_FALSE(tcgen05_kind_accepts(MmaKind::kMxF4, MmaOperand::kA, "float8_e4m3fn"));
  EXPECT_TRUE(tcgen05_kind_accepts(MmaKind::kI8, MmaOperand::kD, "int32"));
  EXPECT_FALSE(tcgen05_kind_accepts(MmaKind::kI8, MmaOperand::kD, "float32"));
  EXPECT_EQ(tcgen05_kind_dtypes(MmaKind::kF16, MmaOperand::kA), "float16, bfloat16");
}

TEST(MmaKinds, SharedMemoryElementSizes) {
  EXPECT_EQ(tcgen05_smem_element_bits(MmaKind::kF8F6F4, "float4_e2m1fn"), 8);   // unpacked container
  EXPECT_EQ(tcgen05_smem_element_bits(MmaKind::kMxF8F6F4, "float4_e2m1fn"), 8);
  EXPECT_EQ(tcgen05_smem_element_bits(MmaKind::kMxF4Nvf4, "float4_e2m1fn"), 4);  // packed
  EXPECT_EQ(tcgen05_smem_element_bits(MmaKind::kTf32, "float32"), 32);
  EXPECT_EQ(tcgen05_smem_element_bits(MmaKind::kF16, "bfloat16"), 16);
}

TEST(MmaKinds, CtaPairSplitsAAndB) {
  const MmaOperandRows one = tcgen05_operand_rows(128, 64, 1);
  EXPECT_EQ(one.a_rows, 128);
  EXPECT_EQ(one.b_rows, 64);
  const MmaOperandRows two = tcgen05_operand_rows(256, 256, 2);
  EXPECT_EQ(two.a_rows, 128);
  EXPECT_EQ(two.b_rows, 128);
  EXPECT_EQ(tcgen05_operand_rows(128, 32, 2).a_rows, 64);  // Layout B: 64 rows per CTA
  EXPECT_TRUE(throws_check([] { tcgen05_operand_rows(128, 64, 3); }, "tcgen05.shape", {"cta_group::3"}));
}

TEST(MmaKinds, Wgmma) {
  EXPECT_EQ(wgmma_k("float16"), 16);
  EXPECT_EQ(wgmma_k("bfloat16"), 16);
  EXPECT_EQ(wgmma_k("float32"), 8);
  EXPECT_EQ(wgmma_k("float8_e5m2"), 32);
  EXPECT_EQ(wgmma_k("int8"), 32);
  EXPECT_EQ(wgmma_k("float4_e2m1fn"), 0);
  EXPECT_TRUE(wgmma_mn_major_allowed("bfloat16"));
  EXPECT_FALSE(wgmma_mn_major_allowed("float8_e4m3fn"));
}

// The header's closed forms, written out independently, for every byte-sized element, mode,
// base offset and major-ness (element_address is computed through element_bit_address).
std::uint64_t closed_form(const SmemDescriptor& d, int m, int k, int e, bool mn) {
  const std::uint64_t t = 16 / e, S = tma_swizzle_span_bytes(d.swizzle);
  const std::uint64_t M = m, K = k;
  if (!S)
    return mn ? d.start_address + (M / t) * d.sbo + (M % t) * e + (K / 8) * d.lbo + (K % 8) * 16
              : d.start_address + (M / 8) * d.sbo + (K / t) * d.lbo + (M % 8) * 16 + (K % t) * e;
  const std::uint64_t pre = mn ? d.start_address + (M / (S / e)) * d.lbo + (M % (S / e)) * e + (K / 8) * d.sbo + (K % 8) * S
                               : d.start_address + (M / 8) * d.sbo + (M % 8) * S + K * e;
  const std::uint64_t lines = S / 16;
  return pre ^ ((((pre >> 7) + 8 * lines - d.base_offset) % lines) << 4);
}

TEST(SmemDescriptorBits, ByteElementsFollowTheClosedForms) {
  int checked = 0;
  for (TmaSwizzle mode : {TmaSwizzle::kNone, TmaSwizzle::k32B, TmaSwizzle::k64B, TmaSwizzle::k128B})
    for (int base : {0, 3})
      for (bool mn : {false, true})
        for (int eb : {1, 2, 4}) {
          SmemDescriptor d;
          d.start_address = 2048 + 32;
          d.lbo = 256;
          d.sbo = 1024;
          d.swizzle = mode;
          d.base_offset = mode == TmaSwizzle::kNone ? 0 : base;
          const int span = tma_swizzle_span_bytes(mode);
          const int kmax = (!mn && span) ? span / eb : 32;
          for (int m = 0; m < 24; ++m)
            for (int k = 0; k < kmax; ++k) {
              const std::uint64_t bits = d.element_bit_address(m, k, 8 * eb, mn);
              ASSERT_EQ(bits % 8, 0u);
              ASSERT_EQ(bits / 8, closed_form(d, m, k, eb, mn)) << m << "," << k << " eb " << eb << " mn " << mn;
              ASSERT_EQ(d.element_address(m, k, eb, mn), bits / 8);
              ++checked;
            }
        }
  EXPECT_EQ(checked, 41856);
}

TEST(SmemDescriptorBits, FourBitElements) {
  SmemDescriptor d;  // K-major, no swizzle: 8 rows x 16 bytes = 32 fp4 per core-matrix row
  d.start_address = 0;
  d.lbo = 128;
  d.sbo = 256;
  EXPECT_EQ(d.element_bit_address(0, 1, 4, false), 4u);             // second nibble of byte 0
  EXPECT_EQ(d.element_bit_address(1, 0, 4, false), 16u * 8);       // next row: 16 bytes
  EXPECT_EQ(d.element_bit_address(0, 32, 4, false), 128u * 8);     // next 16-byte chunk: LBO
  EXPECT_EQ(d.element_bit_address(8, 3, 4, false), 256u * 8 + 12);  // next 8-row group: SBO
  SmemDescriptor s;  // K-major 128B: row pitch 128 bytes, chunk ^= line
  s.start_address = 0;
  s.sbo = 1024;
  s.swizzle = TmaSwizzle::k128B;
  // (1, 33): byte 128 + 16 = 144 (chunk 1 of line 1) -> chunk 1 ^ 1 = 0 -> byte 128, nibble 1.
  EXPECT_EQ(s.element_bit_address(1, 33, 4, false), 128u * 8 + 4);
  EXPECT_EQ(s.element_bit_address(0, 255, 4, false), 127u * 8 + 4);
  EXPECT_TRUE(throws_check([&] { s.element_bit_address(0, 256, 4, false); }, "smem.descriptor", {"beyond"}));
  EXPECT_TRUE(throws_check([&] { s.element_bit_address(0, 0, 6, false); }, "smem.descriptor", {"6 bits"}));
}

}  // namespace
}  // namespace tirx::hw
