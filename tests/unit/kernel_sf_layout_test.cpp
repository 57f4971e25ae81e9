// kernel.sf-layout (src/kernel/checks/sf_layout.cpp) on a small nvfp4-style model: the scale
// factors a block-scaled MMA reads (every replica) against the SF layouts, the scale_vec rules,
// SF_ID, and the tcgen05.cp that fills an SF buffer.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/model.hpp"

namespace tirx::kernel {
namespace {

const hw::Target& target() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

std::string model(const std::string& ops) {
  return R"J({"format": 2, "kernel": "sf", "buffers": [
 {"name": "A_smem", "scope": "shared.dyn", "shape": [128, 64], "dtype": "uint8", "layout": "S[(128,64):(64,1)]",
  "placement": {"offset_bytes": 0, "align_bytes": 1024}},
 {"name": "B_smem", "scope": "shared.dyn", "shape": [256, 64], "dtype": "uint8", "layout": "S[(256,64):(64,1)]",
  "placement": {"offset_bytes": 16384, "align_bytes": 1024}},
 {"name": "A4", "scope": "shared.dyn", "shape": [128, 128], "dtype": "float4_e2m1fn", "layout": "S[(128,128):(128,1)]",
  "placement": {"offset_bytes": 32768, "align_bytes": 1024}},
 {"name": "B4", "scope": "shared.dyn", "shape": [256, 128], "dtype": "float4_e2m1fn", "layout": "S[(256,128):(128,1)]",
  "placement": {"offset_bytes": 49152, "align_bytes": 1024}},
 {"name": "SFA_smem", "scope": "shared.dyn", "shape": [128, 16], "dtype": "uint8", "layout": "sf_smem_layout(128, 16, 4)",
  "placement": {"offset_bytes": 81920, "align_bytes": 1024}},
 {"name": "acc", "scope": "tmem", "shape": [128, 256], "dtype": "float32", "layout": "S[(128,256):(1@TLane,1@TCol)]",
  "placement": {"col": 0}},
 {"name": "SFA_tmem", "scope": "tmem", "shape": [128, 16], "dtype": "float8_e4m3fn", "layout": "sf_tmem_layout(128, 16, 4)",
  "placement": {"col": 448}},
 {"name": "SFA_nr", "scope": "tmem", "shape": [128, 16], "dtype": "float8_e4m3fn",
  "layout": "S[(4,32,4,4):(4@TCol,1@TLane,16@TCol,1@TCol)]", "view_of": {"buffer": "SFA_tmem"}},
 {"name": "SFB_tmem", "scope": "tmem", "shape": [256, 16], "dtype": "float8_e4m3fn", "layout": "sf_tmem_layout(256, 16, 4)",
  "placement": {"col": 464}},
 {"name": "SFA1", "scope": "tmem", "shape": [128, 4], "dtype": "float8_e8m0fnu", "layout": "sf_tmem_layout(128, 4, 4)",
  "placement": {"col": 256}},
 {"name": "SFB1", "scope": "tmem", "shape": [256, 4], "dtype": "float8_e8m0fnu", "layout": "sf_tmem_layout(256, 4, 4)",
  "placement": {"col": 264}}],
 "ops": [{"name": "alloc", "kind": "tcgen05.alloc", "warps": [0], "cols": 512}, )J" +
         ops + "]}";
}

const char* kDesc = R"("a_desc": {"start": "A_smem[0, 0]", "lbo_bytes": 16, "sbo_bytes": 1024, "swizzle": "none"},
 "b_desc": {"start": "B_smem[0, 0]", "lbo_bytes": 16, "sbo_bytes": 1024, "swizzle": "none"})";

// The nvfp4 MMA of K step `ks` with the fields of `extra` appended (they override by coming later
// only where the test replaces the text).
std::string mma4x(const std::string& sfa_col = "448", const std::string& sfa_region = "SFA_tmem[:, 0:4]",
                  const std::string& scale_vec = "4X") {
  return R"({"name": "mma", "kind": "tcgen05.mma", "warps": [4], "mma_kind": "mxf4nvf4", "m": 128, "n": 256, "k": 64,
   "d": {"lane": 0, "col": 0}, "d_region": "acc", )" +
         std::string(kDesc) + R"(, "sfa": {"lane": 0, "col": )" + sfa_col + R"(}, "sfa_region": ")" + sfa_region +
         R"(", "sfb": {"lane": 0, "col": 464}, "sfb_region": "SFB_tmem[:, 0:4]", "scale_vec": ")" + scale_vec + R"("})";
}

std::string mma1x(int sf_id) {
  return R"({"name": "mma1", "kind": "tcgen05.mma", "warps": [4], "mma_kind": "mxf8f6f4", "m": 128, "n": 256, "k": 32,
   "d": {"lane": 0, "col": 0}, "d_region": "acc", )" +
         std::string(kDesc) + R"(, "sfa": {"lane": 0, "col": 256}, "sfa_region": "SFA1[:, 1]",
   "sfb": {"lane": 0, "col": 264}, "sfb_region": "SFB1[:, 1]", "scale_vec": "1X", "sfa_id": )" +
         std::to_string(sf_id) + R"(, "sfb_id": )" + std::to_string(sf_id) + "}";
}

std::string cp(const std::string& shape = "32x128b.warpx4", const std::string& col = "448") {
  return R"({"name": "cp", "kind": "tcgen05.cp", "warps": [4], "shape": ")" + shape + R"(",
   "src_desc": {"start": "SFA_smem[0, 0]", "lbo_bytes": 0, "sbo_bytes": 128, "swizzle": "none"},
   "taddr": {"lane": 0, "col": )" + col + R"(}, "smem": "SFA_smem[:, 0:4]", "tmem": "SFA_tmem[:, 0:4]"})";
}

struct CheckRun {
  KernelModel m;
  std::vector<KernelFinding> findings;
  const KernelFinding* of(const std::string& subject) const {
    for (const auto& f : findings)
      if (f.subject == subject) return &f;
    return nullptr;
  }
};

CheckRun run(const std::string& ops) {
  CheckRun r;
  r.m = parse_model(model(ops), "sf.json");
  const KernelGraph g = build_graph(r.m);
  const KernelContext ctx = make_context(r.m, g, target(), {});
  r.findings = find_kernel_check("kernel.sf-layout")->run(ctx);
  return r;
}

TEST(KernelSfLayout, Nvfp4MmaAndItsCopyAgree) {
  const CheckRun r = run(cp() + ", " + mma4x());
  ASSERT_NE(r.of("mma"), nullptr);
  EXPECT_EQ(r.of("mma")->status, prove::Status::kPass) << r.of("mma")->message;
  ASSERT_NE(r.of("cp"), nullptr);
  EXPECT_EQ(r.of("cp")->status, prove::Status::kPass) << r.of("cp")->message;
  EXPECT_NE(r.of("cp")->message.find("all 512 elements"), std::string::npos) << r.of("cp")->message;
  EXPECT_EQ(r.of("alloc"), nullptr);  // no finding for ops the check does not apply to
}

TEST(KernelSfLayout, SfColumnOffset) {
  const CheckRun r = run(mma4x("449"));
  const KernelFinding* f = r.of("mma");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->witness["operand"], "SFA");
  EXPECT_EQ(f->witness["kind"], "placement");
  EXPECT_EQ(f->witness["element"], nlohmann::json({0, 0}));
  EXPECT_EQ(f->witness["instruction"][0]["col"], 449);
  EXPECT_EQ(f->witness["layout"][0]["col"], 448);
  EXPECT_EQ(f->fix, "use SFA address column 448 (the column the layout gives the first scale factor)");
}

TEST(KernelSfLayout, SfPerMmaMismatch) {
  const CheckRun r = run(mma4x("448", "SFA_tmem[:, 0:2]"));
  const KernelFinding* f = r.of("mma");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_NE(f->message.find("holds 2 scale factors per row"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("(sf_per_mma mismatch)"), std::string::npos);
  EXPECT_EQ(f->witness["kind"], "sf_per_mma");
}

TEST(KernelSfLayout, MissingReplication) {
  const CheckRun r = run(mma4x("448", "SFA_nr[:, 0:4]"));
  const KernelFinding* f = r.of("mma");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->witness["kind"], "missing replication");
  EXPECT_EQ(f->witness["instruction"].size(), 4u);
  EXPECT_EQ(f->witness["instruction"][1]["lane"], 32);
  EXPECT_EQ(f->witness["layout"].size(), 1u);
  EXPECT_NE(f->message.find("lanes [0, 32, 64, 96]"), std::string::npos) << f->message;
  EXPECT_NE(f->fix.find("R[4:32@TLane]"), std::string::npos);
}

TEST(KernelSfLayout, WrongScaleVec) {
  const CheckRun r = run(mma4x("448", "SFA_tmem[:, 0:4]", "2X"));
  const KernelFinding* f = r.of("mma");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_NE(f->message.find("scale_vec::2X takes UE8M0 (float8_e8m0fnu) scale factors, not float8_e4m3fn"),
            std::string::npos)
      << f->message;
  EXPECT_EQ(f->fix, "use scale_vec::4X");
  EXPECT_EQ(f->witness["kind"], "scale_vec");
}

TEST(KernelSfLayout, SfIdSelectsTheByte) {
  const CheckRun bad = run(mma1x(0));
  const KernelFinding* f = bad.of("mma1");
  ASSERT_EQ(f->status, prove::Status::kFail) << f->message;
  EXPECT_EQ(f->witness["scale"]["sf_id"], 0);
  EXPECT_EQ(f->witness["layout"][0]["byte"], 1);
  EXPECT_EQ(f->fix, "use SF_ID 1 (sfa_id of the instruction descriptor)");
  const CheckRun ok = run(mma1x(1));
  EXPECT_EQ(ok.of("mma1")->status, prove::Status::kPass) << ok.of("mma1")->message;
}

TEST(KernelSfLayout, CopyToTheWrongColumn) {
  const CheckRun r = run(cp("32x128b.warpx4", "452") + ", " + mma4x());
  const KernelFinding* f = r.of("cp");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->witness["smem_byte"], 81920);
  EXPECT_EQ(f->witness["source"]["row"], 0);
  EXPECT_EQ(f->witness["cp"][0]["col"], 452);
  EXPECT_EQ(f->witness["layout"][0]["col"], 448);
  EXPECT_EQ(f->fix, "use taddr column 448");
}

TEST(KernelSfLayout, CopyWithoutTheFourWayMulticast) {
  const CheckRun r = run(cp("128x128b") + ", " + mma4x());
  const KernelFinding* f = r.of("cp");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->witness["cp"].size(), 1u);
  EXPECT_EQ(f->witness["layout"].size(), 4u);
  EXPECT_NE(f->fix.find("32x128b.warpx4"), std::string::npos) << f->fix;
}

std::string gemm(const std::string& scale_vec) {
  return R"({"name": "g", "kind": "gemm_async", "warps": [4], "d": "acc", "a": "A4", "b": "B4",
   "sfa": "SFA_tmem[:, 0:8]", "sfb": "SFB_tmem[:, 0:8]", "scale_vec": ")" + scale_vec + R"("})";
}

TEST(KernelSfLayout, GemmAsyncBlockScaled) {
  const CheckRun r = run(gemm("4X"));
  ASSERT_NE(r.of("g"), nullptr);
  EXPECT_EQ(r.of("g")->status, prove::Status::kPass) << r.of("g")->message;
  EXPECT_NE(r.of("g")->message.find("kind::mxf4nvf4 M=128 N=256 (Layout D), 1 x 1 x 2 instructions"),
            std::string::npos)
      << r.of("g")->message;
  const CheckRun bad = run(gemm("2X"));
  const KernelFinding* f = bad.of("g");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_NE(f->message.find("TVM's dispatcher emits scale_vec::4X"), std::string::npos) << f->message;
  EXPECT_EQ(f->fix, "use scale_vec::4X");
}

}  // namespace
}  // namespace tirx::kernel
