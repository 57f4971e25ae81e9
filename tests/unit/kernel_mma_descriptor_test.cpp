// kernel.mma-descriptor (src/kernel/checks/mma_descriptor.cpp) and TVM's gemm_async descriptor
// derivation (src/kernel/lower_gemm.cpp).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "kernel_check_test_util.hpp"
#include "tirx_verify/kernel/lower_gemm.hpp"

namespace tirx::kernel {
namespace {

using test::load;
using test::the_finding;

// The example GEMM's buffers (docs/model-format.md): A/B 128 x 64 fp16 128B tiles, a 128 x 128
// fp32 accumulator, and `ops`.
std::string gemm_model(const std::string& ops, std::int64_t b_offset = 33792, const std::string& b_layout = "") {
  const std::string l128 = R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (2, 128, 64)))";
  return fmt::format(R"({{"format": 2, "kernel": "k", "buffers": [
    {{"name": "Asmem", "scope": "shared.dyn", "shape": [2, 128, 64], "dtype": "float16", "layout": "{}",
     "placement": {{"offset_bytes": 1024, "align_bytes": 1024}}}},
    {{"name": "Bsmem", "scope": "shared.dyn", "shape": [2, 128, 64], "dtype": "float16", "layout": "{}",
     "placement": {{"offset_bytes": {}, "align_bytes": 128}}}},
    {{"name": "acc", "scope": "tmem", "shape": [128, 128], "dtype": "float32",
     "layout": "S[(128,128):(1@TLane,1@TCol)]", "alloc_cols": 128, "placement": {{"col": 0}}}}],
    "ops": {}}})",
                     l128, b_layout.empty() ? l128 : b_layout, b_offset, ops);
}

std::string mma_op(const std::string& a_desc, const std::string& extra = "") {
  return fmt::format(R"([{{"name": "mma", "kind": "tcgen05.mma", "mma_kind": "f16", "m": 128, "n": 128, "k": 16,
     "d": {{"lane": 0, "col": 0}}, "d_region": "acc", "a_desc": {},
     "b_desc": {{"start": "Bsmem[0, 0, 0]", "lbo_bytes": 16, "sbo_bytes": 1024, "swizzle": "128B", "major": "K"}},
     "a": "Asmem[0, :, 0:16]", "b": "Bsmem[0, :, 0:16]",
     "idesc": {{"d_dtype": "float32", "a_dtype": "float16", "b_dtype": "float16", "a_major": "K", "b_major": "K",
               "m": 128, "n": 128{}}}}}])",
                     a_desc, extra);
}

const char* kGoodA = R"({"start": "Asmem[0, 0, 0]", "lbo_bytes": 16, "sbo_bytes": 1024, "swizzle": "128B", "major": "K"})";

TEST(MmaDescriptor, MatchingDescriptorsPass) {
  auto l = load(gemm_model(mma_op(kGoodA)));
  const KernelFinding f = the_finding(*l, "kernel.mma-descriptor", "mma");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_EQ(f.related, (std::vector<std::string>{"Asmem", "Bsmem"}));
}

TEST(MmaDescriptor, SboOffByAFactorGivesTheFix) {
  auto l = load(gemm_model(mma_op(R"({"start": "Asmem[0, 0, 0]", "lbo_bytes": 16, "sbo_bytes": 512, "swizzle": "128B",
                                      "major": "K"})")));
  const KernelFinding f = the_finding(*l, "kernel.mma-descriptor", "mma");
  ASSERT_EQ(f.status, prove::Status::kFail);
  // Row 8 (the second 8-row group): the descriptor reads 1024 + 512, the layout has it at 1024 + 1024.
  EXPECT_EQ(f.witness["operand"], "A");
  EXPECT_EQ(f.witness["element"], (std::vector<std::int64_t>{8, 0}));
  // 1024 + 512 = 1536 is line 12 of the absolute 128B pattern: chunk 0 ^ (12 % 8) -> 1536 + 64.
  EXPECT_EQ(f.witness["descriptor_byte"], 1600);
  EXPECT_EQ(f.witness["layout_byte"], 2048);
  EXPECT_EQ(f.fix, "A descriptor: SBO 1024 (not 512)");
}

TEST(MmaDescriptor, KStepOffsetAndBaseOffset) {
  auto k1 = load(gemm_model(mma_op(R"({"start": "Asmem[0, 0, 0]", "offset_bytes": 64, "lbo_bytes": 16,
     "sbo_bytes": 1024, "swizzle": "128B", "major": "K"})")));
  KernelFinding f = the_finding(*k1, "kernel.mma-descriptor", "mma");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.fix, "A descriptor: start address byte 1024 (not 1088: -64 bytes)");
  auto b3 = load(gemm_model(mma_op(R"({"start": "Asmem[0, 0, 0]", "lbo_bytes": 16, "sbo_bytes": 1024,
     "swizzle": "128B", "base_offset": 3, "major": "K"})")));
  f = the_finding(*b3, "kernel.mma-descriptor", "mma");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.fix, "A descriptor: base offset 0 (not 3)");
}

TEST(MmaDescriptor, InstructionDescriptorProblems) {
  auto l = load(gemm_model(mma_op(kGoodA, R"(, "sparse": false)")));
  EXPECT_EQ(the_finding(*l, "kernel.mma-descriptor", "mma").status, prove::Status::kPass);
  std::string ops = mma_op(kGoodA);
  ops.replace(ops.find(R"("a_dtype": "float16")"), 20, R"("a_dtype": "bfloat16")");
  ops.replace(ops.find(R"("b_major": "K")"), 14, R"("b_major": "MN")");
  auto bad = load(gemm_model(ops));
  const KernelFinding f = the_finding(*bad, "kernel.mma-descriptor", "mma");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["idesc_problems"],
            (std::vector<std::string>{"idesc says B is MN-major, the B descriptor is K-major",
                                      "idesc A type bfloat16, but Asmem holds float16"}));
}

// Under .cta_group::2 each CTA's descriptors cover M/2 rows of A and N/2 rows of B.
TEST(MmaDescriptor, CtaPairTiles) {
  auto ops = [](int cta_group) {
    return fmt::format(R"([{{"name": "mma", "kind": "tcgen05.mma", "cta_group": {}, "mma_kind": "f16",
       "m": 256, "n": 256, "k": 16, "d": {{"lane": 0, "col": 0}}, "d_region": "acc", "a_desc": {},
       "b_desc": {{"start": "Bsmem[0, 0, 0]", "lbo_bytes": 16, "sbo_bytes": 1024, "swizzle": "128B", "major": "K"}},
       "a": "Asmem[0, :, 0:16]", "b": "Bsmem[0, :, 0:16]"}}])",
                       cta_group, kGoodA);
  };
  auto two = load(gemm_model(ops(2)));
  EXPECT_EQ(the_finding(*two, "kernel.mma-descriptor", "mma").status, prove::Status::kPass);
  auto one = load(gemm_model(ops(1)));
  const KernelFinding f = the_finding(*one, "kernel.mma-descriptor", "mma");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["kind"], "tile");
  EXPECT_EQ(f.witness["tile"], (std::vector<std::int64_t>{256, 16}));
}

// triton#7830: a 16-byte-row B tile only fits the no-swizzle canonical layout.
TEST(MmaDescriptor, WgmmaSixteenByteRowsNeedNoSwizzle) {
  auto model = [](const std::string& b_desc) {
    return fmt::format(R"J({{"format": 2, "kernel": "k", "target": "sm_90a", "buffers": [
      {{"name": "a", "scope": "shared.dyn", "shape": [64, 16], "dtype": "float16",
       "layout": "mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_32B_ATOM, (64, 16))",
       "placement": {{"offset_bytes": 0, "align_bytes": 1024}}}},
      {{"name": "b", "scope": "shared.dyn", "shape": [16, 8], "dtype": "float16", "layout": "S[(16,8):(8,1)]",
       "placement": {{"offset_bytes": 2048, "align_bytes": 1024}}}}],
      "ops": [{{"name": "w", "kind": "wgmma", "warps": [0, 1, 2, 3], "m": 64, "n": 8, "k": 16,
               "a_desc": {{"start": "a[0, 0]", "lbo_bytes": 0, "sbo_bytes": 256, "swizzle": "32B", "major": "K"}},
               "b_desc": {}, "a": "a", "b": "b", "b_dims": "KN"}}]}})J",
                       b_desc);
  };
  auto bad = load(model(R"({"start": "b[0, 0]", "lbo_bytes": 0, "sbo_bytes": 1024, "swizzle": "128B", "major": "MN"})"));
  const KernelFinding f = the_finding(*bad, "kernel.mma-descriptor", "w");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["operand"], "B");
  EXPECT_EQ(f.witness["buffer_element"], (std::vector<std::int64_t>{1, 0}));  // (k 1, n 0)
  EXPECT_EQ(f.witness["descriptor_byte"], 2048 + 128 + 16);                   // row 1 of the 128B pattern
  EXPECT_EQ(f.witness["layout_byte"], 2048 + 16);
  EXPECT_EQ(f.fix, "B descriptor: swizzle none (not 128B), LBO 128 (not 0)");
  auto good = load(model(R"({"start": "b[0, 0]", "lbo_bytes": 128, "sbo_bytes": 128, "swizzle": "none", "major": "MN"})"));
  EXPECT_EQ(the_finding(*good, "kernel.mma-descriptor", "w").status, prove::Status::kPass);
}

// ---------------------------------------------------------------- gemm_async (TVM's derivation)

const char* kGemmAsync = R"([{"name": "g", "kind": "gemm_async", "d": "acc", "a": "Asmem[0, :, :]",
                              "b": "Bsmem[1, :, :]", "accumulate": false}])";

TEST(LowerGemm, KMajorTilesStepTheStartBy32BytesPerK16) {
  auto l = load(gemm_model(kGemmAsync));
  const auto& g = std::get<GemmAsyncOp>(l->model.ops[0].data);
  const GemmLowering low = lower_gemm_async(l->ctx, g, 1);
  ASSERT_TRUE(low.plan) << low.error;
  const GemmPlan& p = *low.plan;
  EXPECT_EQ(p.m_mma, 128);
  EXPECT_EQ(p.n_mma, 128);
  EXPECT_EQ(p.k, 16);
  ASSERT_EQ(p.instrs.size(), 4u);
  for (int ki = 0; ki < 4; ++ki) {
    const auto& in = p.instrs[static_cast<std::size_t>(ki)];
    EXPECT_EQ(in.ki, ki);
    EXPECT_EQ(in.a->desc.start_address, 1024u + 32 * ki);
    EXPECT_EQ(in.b.desc.start_address, 33792u + 16384 + 32 * ki);  // Bsmem[1]: one 16 KB stage on
    EXPECT_EQ(in.a->desc.lbo, 0u);
    EXPECT_EQ(in.a->desc.sbo, 1024u);
    EXPECT_EQ(in.a->desc.swizzle, hw::TmaSwizzle::k128B);
    EXPECT_FALSE(in.a->mn_major);
  }
  EXPECT_EQ(the_finding(*l, "kernel.mma-descriptor", "g").status, prove::Status::kPass);
}

// B stored (K, N) with N contiguous (b_dims KN): TVM matches the atom MN-major; LBO = the
// 64-column atom stride (8 rows x 1024 bytes), SBO = the 8-K group (1024 bytes).
TEST(LowerGemm, TransposedBIsMnMajor) {
  const std::string bl = R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (64, 128)))";
  std::string text = gemm_model(R"([{"name": "g", "kind": "gemm_async", "d": "acc", "a": "Asmem[0, :, :]",
                                    "b": "Bsmem", "b_dims": "KN", "accumulate": false}])",
                                33792, bl);
  text.replace(text.find(R"J("shape": [2, 128, 64], "dtype": "float16", "layout": "mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (64, 128))")J"),
               22, R"("shape": [64, 128],   )");
  auto l = load(text);
  const auto& g = std::get<GemmAsyncOp>(l->model.ops[0].data);
  const GemmLowering low = lower_gemm_async(l->ctx, g, 1);
  ASSERT_TRUE(low.plan) << low.error;
  const auto& b = low.plan->instrs[1].b;
  EXPECT_TRUE(b.mn_major);
  EXPECT_EQ(b.desc.lbo, 8192u);
  EXPECT_EQ(b.desc.sbo, 1024u);
  EXPECT_EQ(b.desc.start_address, 33792u + 16 * 128);  // K step 1: 16 rows of the 128-byte atom rows
  EXPECT_EQ(the_finding(*l, "kernel.mma-descriptor", "g").status, prove::Status::kPass);
}

TEST(LowerGemm, UnexpressibleLayoutsAreRefusedWithTheReason) {
  auto l = load(gemm_model(kGemmAsync, 33792, "S[(2,128,64):(8192,64,1)]"));
  const auto& g = std::get<GemmAsyncOp>(l->model.ops[0].data);
  const GemmLowering low = lower_gemm_async(l->ctx, g, 1);
  EXPECT_FALSE(low.plan);
  EXPECT_FALSE(low.not_modelled);
  EXPECT_EQ(low.error, "B: no-swizzle descriptors need the penultimate matrix dimension contiguous or 16-byte packed");
  const KernelFinding f = the_finding(*l, "kernel.mma-descriptor", "g");
  EXPECT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["kind"], "lowering");
}

TEST(LowerGemm, MisalignedOperandGetsThePlacementFix) {
  auto l = load(gemm_model(kGemmAsync, 33792 + 384));
  const KernelFinding f = the_finding(*l, "kernel.mma-descriptor", "g");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.fix, "place Bsmem at a multiple of 1024 bytes (e.g. byte 34816)");
  EXPECT_EQ(f.witness["instruction"], (std::vector<int>{0, 0, 0}));
}

}  // namespace
}  // namespace tirx::kernel
