// kernel.coverage (src/kernel/checks/coverage.cpp) on small models: each failure kind with its
// witness values, the passes it must not report, and the bound on the work.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/model.hpp"

namespace tirx::kernel {
namespace {

std::vector<KernelFinding> coverage(const std::string& buffers, const std::string& ops) {
  static const hw::Target target = hw::load_target("sm_100a");
  const KernelModel m =
      parse_model(R"({"format": 2, "kernel": "k", "buffers": [)" + buffers + R"(], "ops": [)" + ops + "]}", "m.json");
  const KernelGraph g = build_graph(m);
  const KernelContext ctx = make_context(m, g, target, {});
  return find_kernel_check("kernel.coverage")->run(ctx);
}

const KernelFinding* about(const std::vector<KernelFinding>& fs, const std::string& subject) {
  for (const auto& f : fs)
    if (f.subject == subject) return &f;
  return nullptr;
}

// A 128 x 64 fp32 accumulator, read back 32 columns at a time into one fragment.
const char* kAcc = R"(
  {"name": "acc", "scope": "tmem", "shape": [128, 64], "dtype": "float32", "layout": "S[(128,64):(1@TLane,1@TCol)]",
   "placement": {"col": 0}},
  {"name": "A", "scope": "shared.dyn", "shape": [128, 16], "dtype": "float16", "layout": "S[(128,16):(16,1)]",
   "placement": {"offset_bytes": 0}},
  {"name": "frag", "scope": "local", "shape": [128, 32], "dtype": "float32", "layout": "S[(128,32):(1@tid_in_wg,1)]"})";

std::string mma(const std::string& name, bool accumulate) {
  return R"({"name": ")" + name + R"(", "kind": "gemm_async", "d": "acc", "a": "A", "b": "A[0:64, :]", "accumulate": )" +
         (accumulate ? "true" : "false") + "}";
}
std::string ld(const std::string& name, int col) {
  return R"({"name": ")" + name + R"(", "kind": "tcgen05.ld", "shape": "32x32b", "num": 32, "warps": [0, 1, 2, 3],
     "taddr": {"lane": 0, "col": )" + std::to_string(col) + R"(}, "tmem": "acc[:, )" + std::to_string(col) + ":" +
         std::to_string(col + 32) + R"(]", "regs": "frag"})";
}

TEST(KernelCoverage, AccumulatingKStepsAndAFullEpiloguePass) {
  const auto fs = coverage(kAcc, mma("k0", false) + "," + mma("k1", true) + "," + ld("ld0", 0) + "," + ld("ld1", 32));
  const KernelFinding* acc = about(fs, "acc");
  ASSERT_NE(acc, nullptr);
  EXPECT_EQ(acc->status, prove::Status::kPass) << acc->message;
  const KernelFinding* frag = about(fs, "frag");
  ASSERT_NE(frag, nullptr);
  EXPECT_EQ(frag->status, prove::Status::kPass) << frag->message;
  // ld1 rewrites every register ld0 wrote: the next iteration of the epilogue loop.
  EXPECT_NE(frag->message.find("1 register rewrite(s)"), std::string::npos) << frag->message;
  EXPECT_EQ(about(fs, "A"), nullptr);  // nothing writes A: an input
}

TEST(KernelCoverage, TheFirstKStepMustNotAccumulate) {
  const auto fs = coverage(kAcc, mma("k0", true) + "," + ld("ld0", 0) + "," + ld("ld1", 32));
  const KernelFinding* acc = about(fs, "acc");
  ASSERT_NE(acc, nullptr);
  EXPECT_EQ(acc->status, prove::Status::kFail);
  EXPECT_EQ(acc->severity, Severity::kError);
  EXPECT_EQ(acc->witness["kind"], "read before written");
  EXPECT_EQ(acc->witness["reader"]["op"], "k0");
  EXPECT_EQ(acc->witness["reader"]["element"], nlohmann::json::array({0, 0}));
  EXPECT_EQ(acc->witness["cell"], (nlohmann::json{{"lane", 0}, {"col", 0}, {"bit", 0}}));
  EXPECT_NE(acc->fix.find("\"accumulate\": false on 'k0'"), std::string::npos) << acc->fix;
}

TEST(KernelCoverage, AColumnBlockNoLoadReadsIsLeftBehind) {
  const auto fs = coverage(kAcc, mma("k0", false) + "," + ld("ld0", 0));
  const KernelFinding* acc = about(fs, "acc");
  ASSERT_NE(acc, nullptr);
  EXPECT_EQ(acc->status, prove::Status::kFail);
  EXPECT_EQ(acc->severity, Severity::kError);
  EXPECT_EQ(acc->witness["kind"], "never read");
  EXPECT_EQ(acc->witness["writer"]["element"], nlohmann::json::array({0, 32}));
  EXPECT_EQ(acc->witness["cell"]["col"], 32);
  EXPECT_EQ(acc->witness["unread_units"], 128 * 32);
  EXPECT_EQ(acc->related, (std::vector<std::string>{"k0"}));
}

TEST(KernelCoverage, TwoOpsOverwritingUnreadSharedMemoryFail) {
  const char* bufs = R"(
    {"name": "r", "scope": "local", "shape": [32, 4], "dtype": "float32", "layout": "S[(32,4):(1@laneid,1)]"},
    {"name": "s", "scope": "shared.dyn", "shape": [64, 4], "dtype": "float32", "layout": "S[(64,4):(4,1)]",
     "placement": {"offset_bytes": 256}})";
  auto st = [](const std::string& name, int row) {
    return R"({"name": ")" + name + R"(", "kind": "smem.access", "direction": "store", "warps": [0],
      "access_bytes": 16, "smem": "s[)" + std::to_string(row) + ":" + std::to_string(row + 32) +
           R"(, :]", "regs": "r"})";
  };
  const auto fs = coverage(bufs, st("st0", 0) + "," + st("st1", 16));
  const KernelFinding* s = about(fs, "s");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->status, prove::Status::kFail);
  EXPECT_EQ(s->witness["kind"], "written twice");
  EXPECT_EQ(s->witness["first"]["op"], "st0");
  EXPECT_EQ(s->witness["first"]["element"], nlohmann::json::array({16, 0}));
  EXPECT_EQ(s->witness["second"]["op"], "st1");
  EXPECT_EQ(s->witness["second"]["element"], nlohmann::json::array({16, 0}));
  EXPECT_EQ(s->witness["cell"]["smem_byte"], 256 + 16 * 16);
  EXPECT_EQ(s->related, (std::vector<std::string>{"st0", "st1"}));
  // Disjoint rows: fine.
  const auto ok = coverage(bufs, st("st0", 0) + "," + st("st1", 32));
  EXPECT_EQ(about(ok, "s")->status, prove::Status::kPass) << about(ok, "s")->message;
}

TEST(KernelCoverage, APartialRegisterOverlapFailsWithBothRanges) {
  const char* bufs = R"(
    {"name": "t", "scope": "tmem", "shape": [128, 96], "dtype": "bfloat16", "layout": "S[(128,96):(1@TLane,1@TCol)]"},
    {"name": "p", "scope": "local", "shape": [128, 96], "dtype": "bfloat16", "layout": "S[(128,96):(1@tid_in_wg,1)]"})";
  const std::string seg0 = R"({"name": "seg0", "kind": "tcgen05.ld", "shape": "32x32b", "num": 32,
    "warps": [0, 1, 2, 3], "taddr": {"lane": 0, "col": 0}, "tmem": "t[:, 0:64]", "regs": "p[:, 0:64]"})";
  auto seg1 = [](const std::string& regs) {
    return R"({"name": "seg1", "kind": "tcgen05.ld", "shape": "32x32b", "num": 16, "warps": [0, 1, 2, 3],
      "taddr": {"lane": 0, "col": 32}, "tmem": "t[:, 64:96]", "regs": ")" + regs + R"("})";
  };
  const auto bad = coverage(bufs, seg0 + "," + seg1("p[:, 32:64]"));
  const KernelFinding* p = about(bad, "p");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->status, prove::Status::kFail);
  EXPECT_EQ(p->witness["first"]["regs"], nlohmann::json::array({0, 32}));
  EXPECT_EQ(p->witness["second"]["regs"], nlohmann::json::array({16, 32}));
  EXPECT_EQ(p->witness["cell"], (nlohmann::json{{"warp", 0}, {"lane", 0}, {"reg", 16}, {"bit", 0}}));
  EXPECT_NE(p->fix.find("start 'seg1' at register 32"), std::string::npos) << p->fix;
  const auto good = coverage(bufs, seg0 + "," + seg1("p[:, 64:96]"));
  EXPECT_EQ(about(good, "p")->status, prove::Status::kPass) << about(good, "p")->message;
}

TEST(KernelCoverage, StrideZeroBroadcastTwinsShareACellOnPurpose) {
  // sf_reuse: elements that differ only in the stride-0 digit are one scale factor.
  const char* bufs = R"(
    {"name": "sf_smem", "scope": "shared.dyn", "shape": [128, 4], "dtype": "float8_e8m0fnu",
     "layout": "S[(128,4):(4,1)]", "placement": {"offset_bytes": 0}},
    {"name": "sf", "scope": "tmem", "shape": [128, 4, 4], "dtype": "float8_e8m0fnu",
     "layout": "S[(128,4,4):(1@TLane,1@TCol,0@TCol)]", "placement": {"col": 64}},
    {"name": "sf_src", "scope": "shared.dyn", "shape": [128, 4, 4], "dtype": "float8_e8m0fnu",
     "layout": "S[(128,4,4):(4,1,0)]", "view_of": {"buffer": "sf_smem"}, "broadcast": true})";
  const std::string cp = R"({"name": "cp", "kind": "tcgen05.cp", "shape": "128x128b",
    "src_desc": {"start": "sf_smem[0, 0]", "lbo_bytes": 0, "sbo_bytes": 128, "swizzle": "none", "major": "K"},
    "taddr": {"lane": 0, "col": 64}, "smem": "sf_src", "tmem": "sf"})";
  const auto fs = coverage(bufs, cp);
  const KernelFinding* sf = about(fs, "sf");
  ASSERT_NE(sf, nullptr);
  EXPECT_EQ(sf->status, prove::Status::kPass) << sf->message;
}

TEST(KernelCoverage, AFragmentNamingAThreadOutsideTheOpIsNotApplicable) {
  // Rows 64..95 of the warpgroup fragment belong to warp 2 of a warpgroup; the op's only warp is
  // warp 1 (index 1 in its warpgroup), so no thread of the op holds them.
  const char* bufs = R"(
    {"name": "t", "scope": "tmem", "shape": [128, 32], "dtype": "float32", "layout": "S[(128,32):(1@TLane,1@TCol)]"},
    {"name": "f", "scope": "local", "shape": [128, 32], "dtype": "float32", "layout": "S[(128,32):(1@tid_in_wg,1)]"})";
  const auto fs = coverage(bufs, R"({"name": "ld", "kind": "tcgen05.ld", "shape": "32x32b", "num": 32, "warps": [1],
      "taddr": {"lane": 0, "col": 0}, "tmem": "t[32:64, :]", "regs": "f[64:96, :]"})");
  const KernelFinding* f = about(fs, "f");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->status, prove::Status::kNotApplicable);
  EXPECT_NE(f->message.find("[kernel.fragment]"), std::string::npos) << f->message;
}

}  // namespace
}  // namespace tirx::kernel
