// mma_shared_layout / parse_swizzle_mode: facts from TVM tests/python/tirx/test_layout.py
// (test_mma_shared_layout, test_pool_allocator_alloc_mma), the spec (g) table for every dtype
// and mode, and a check of every element against the K-major canonical layouts of PTX ISA 9.1
// §9.7.16.3.3 (swizzle = Swizzle<B,4,3> on byte addresses: 16-byte chunk bits [4,4+B) XOR row
// bits [7,7+B)), written out independently below.
#include <gtest/gtest.h>

#include <vector>

#include "layout_algebra_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx {
namespace {

using test::C;
using test::L;

Layout msl(const char* dtype, SwizzleMode mode, Shape shape) {
  return mma_shared_layout(DType::parse(dtype), mode, shape);
}

TEST(MmaSharedLayout, SpecTableEveryDtypeAndMode) {
  using M = SwizzleMode;
  struct Case {
    const char* dtype;
    M mode;
    Shape shape;
    Layout expected;
  };
  const Case cases[] = {
      // fp16 / bf16 († = asserted in test_mma_shared_layout / test_pool_allocator_alloc_mma)
      {"float16", M::k128B, {64, 256}, C(3, 3, 3, "S[(64,4,64):(64,4096,1)]")},             // †
      {"float16", M::k128B, {3, 64, 256}, C(3, 3, 3, "S[(3,64,4,64):(16384,64,4096,1)]")},  // †
      {"float16", M::k128B, {64, 64}, C(3, 3, 3, "S[4096:1]")},
      {"float16", M::k128B, {128, 128}, C(3, 3, 3, "S[(128,2,64):(64,8192,1)]")},
      {"float16", M::k128B, {8, 64}, C(3, 3, 3, "S[512:1]")},
      {"float16", M::k64B, {3, 64, 256}, C(3, 2, 3, "S[(3,64,8,32):(16384,32,2048,1)]")},  // †
      {"bfloat16", M::k64B, {64, 64}, C(3, 2, 3, "S[(64,2,32):(32,2048,1)]")},
      {"float16", M::k32B, {64, 64}, C(3, 1, 3, "S[(64,4,16):(16,1024,1)]")},
      {"float16", M::k32B, {3, 64, 256}, C(3, 1, 3, "S[(3,64,16,16):(16384,16,1024,1)]")},
      {"float16", M::kNone, {64, 64}, L("S[(64,8,8):(8,512,1)]")},
      {"float16", M::kNone, {3, 64, 256}, L("S[(3,64,32,8):(16384,8,512,1)]")},  // pool "none"
      // fp32
      {"float32", M::k128B, {64, 256}, C(2, 3, 3, "S[(64,8,32):(32,2048,1)]")},
      {"float32", M::k128B, {3, 64, 256}, C(2, 3, 3, "S[(3,64,8,32):(16384,32,2048,1)]")},
      {"float32", M::k64B, {3, 64, 256}, C(2, 2, 3, "S[(3,64,16,16):(16384,16,1024,1)]")},  // pool 64B
      {"float32", M::k32B, {64, 64}, C(2, 1, 3, "S[(64,8,8):(8,512,1)]")},
      {"float32", M::kNone, {64, 64}, L("S[(64,16,4):(4,256,1)]")},
      // 8-bit
      {"uint8", M::k128B, {64, 256}, C(4, 3, 3, "S[(64,2,128):(128,8192,1)]")},
      {"float8_e4m3fn", M::k128B, {128, 128}, C(4, 3, 3, "S[16384:1]")},
      {"uint8", M::k128B, {3, 64, 256}, C(4, 3, 3, "S[(3,64,2,128):(16384,128,8192,1)]")},
      {"uint8", M::k64B, {64, 64}, C(4, 2, 3, "S[4096:1]")},
      {"float8_e5m2", M::k32B, {64, 64}, C(4, 1, 3, "S[(64,2,32):(32,2048,1)]")},
      {"uint8", M::kNone, {64, 64}, L("S[(64,4,16):(16,1024,1)]")},
      // fp4
      {"float4_e2m1fn", M::k128B, {3, 64, 256}, C(5, 3, 3, "S[49152:1]")},
      {"float4_e2m1fn", M::k64B, {64, 256}, C(5, 2, 3, "S[(64,2,128):(128,8192,1)]")},
      {"float4_e2m1fn", M::k32B, {64, 256}, C(5, 1, 3, "S[(64,4,64):(64,4096,1)]")},
      {"float4_e2m1fn", M::kNone, {64, 64}, L("S[(64,2,32):(32,2048,1)]")},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.dtype) + " mode " + std::to_string(static_cast<int>(c.mode)));
    EXPECT_LAYOUT_EQ(mma_shared_layout(DType::parse(c.dtype), c.mode, c.shape), c.expected);
  }
}

// PTX K-major canonical layout: bit address of element (lead..., r, k) of a [rows, K] operand
// stored as consecutive [rows x atom] K-blocks (swizzled) or 8x16-byte core matrices (none).
std::int64_t ptx_bit_address(int bits, int mode, const Shape& shape, const std::vector<std::int64_t>& idx) {
  const std::size_t n = shape.size();
  const std::int64_t rows = shape[n - 2], K = shape[n - 1], r = idx[n - 2], k = idx[n - 1];
  std::int64_t lead = 0;
  for (std::size_t d = 0; d + 2 < n; ++d) lead = lead * shape[d] + idx[d];
  const std::int64_t base_bits = lead * rows * K * bits;
  if (mode == 0) {
    const std::int64_t per = 128 / bits;  // elements per 16-byte core-matrix row
    // core matrix (r/8, k/per): SBO = 128 bytes between 8-row groups, LBO = rows*16 bytes between K chunks
    const std::int64_t byte = (k / per) * rows * 16 + (r / 8) * 128 + (r % 8) * 16;
    return base_bits + byte * 8 + (k % per) * bits;
  }
  const std::int64_t row_bytes = 16 << mode, atom_cols = row_bytes * 8 / bits;
  const std::int64_t kbits = (k % atom_cols) * bits;
  const std::int64_t lin = (k / atom_cols) * rows * row_bytes * 8 + r * row_bytes * 8 + kbits;  // bits
  const std::int64_t chunk = lin >> 7, low = lin & 127;
  const std::int64_t mask = (1 << mode) - 1;
  return base_bits + (((chunk ^ ((chunk >> 3) & mask)) << 7) | low);
}

TEST(MmaSharedLayout, EveryElementMatchesPtxCanonicalLayout) {
  const std::pair<const char*, int> dtypes[] = {{"float4_e2m1fn", 4}, {"uint8", 8}, {"float16", 16}, {"float32", 32}};
  int checked = 0;
  for (auto [name, bits] : dtypes)
    for (int mode = 0; mode <= 3; ++mode) {
      const std::int64_t atom_cols = mode == 0 ? 128 / bits : (16 << mode) * 8 / bits;
      for (const Shape& shape : {Shape{64, 2 * atom_cols}, Shape{16, atom_cols}, Shape{2, 24, 3 * atom_cols}}) {
        SCOPED_TRACE(std::string(name) + " mode " + std::to_string(mode));
        const Layout l = mma_shared_layout(DType::parse(name), static_cast<SwizzleMode>(mode), shape);
        EXPECT_EQ(l.is_compose(), mode != 0);
        std::int64_t total = 1;
        for (auto e : shape) total *= e;
        std::vector<std::int64_t> idx(shape.size());
        for (std::int64_t x = 0; x < total; ++x) {
          std::int64_t rest = x;
          for (std::size_t d = shape.size(); d-- > 0;) {
            idx[d] = rest % shape[d];
            rest /= shape[d];
          }
          ASSERT_EQ(l.apply(x).get(AxisId::m) * bits, ptx_bit_address(bits, mode, shape, idx)) << "flat " << x;
        }
        ++checked;
      }
    }
  EXPECT_EQ(checked, 4 * 4 * 3);
}

TEST(MmaSharedLayout, NoneModeWithKNotAMultipleOfTheChunkIsRowMajor) {
  EXPECT_LAYOUT_EQ(msl("float16", SwizzleMode::kNone, {8, 12}), Layout(L("S[96:1]")));
}

TEST(MmaSharedLayout, Rejects) {
  EXPECT_THROW(msl("float16", SwizzleMode::k128B, {64, 96}), InputError);  // TVM: silently S[4096:1]
  EXPECT_THROW(msl("float16", SwizzleMode::k128B, {4, 64}), InputError);   // TVM: divide by zero
  EXPECT_THROW(msl("float16", SwizzleMode::k128B, {64}), InputError);
  EXPECT_THROW(msl("float16", SwizzleMode::k32B, {64, 0}), InputError);
  EXPECT_THROW(mma_shared_layout(DType{"x", 6}, SwizzleMode::k32B, Shape{8, 64}), InputError);
  EXPECT_THROW(mma_shared_layout(DType::parse("float16"), static_cast<SwizzleMode>(4), Shape{8, 64}), InputError);
}

TEST(SwizzleModeParse, Spellings) {
  EXPECT_EQ(parse_swizzle_mode("SWIZZLE_128B_ATOM"), SwizzleMode::k128B);
  EXPECT_EQ(parse_swizzle_mode("SwizzleMode.SWIZZLE_64B_ATOM"), SwizzleMode::k64B);
  EXPECT_EQ(parse_swizzle_mode("32B"), SwizzleMode::k32B);
  EXPECT_EQ(parse_swizzle_mode("none"), SwizzleMode::kNone);
  EXPECT_EQ(parse_swizzle_mode("SWIZZLE_NONE"), SwizzleMode::kNone);
  EXPECT_EQ(parse_swizzle_mode("3"), SwizzleMode::k128B);
  EXPECT_EQ(parse_swizzle_mode("0"), SwizzleMode::kNone);
  EXPECT_EQ(parse_swizzle_mode("auto"), SwizzleMode::k128B);  // SMEMPool "auto" = 128B
  for (const char* bad : {"4", "SWIZZLE_256B_ATOM", "", "128"}) {
    try {
      (void)parse_swizzle_mode(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.check_id(), "layout.well-formed");
    }
  }
}

}  // namespace
}  // namespace tirx
