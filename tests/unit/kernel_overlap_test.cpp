// kernel.overlap (src/kernel/checks/overlap.cpp): storage shared by buffers live at the same time,
// the bounding-box shortcut (boxes that do not meet are never swept), byte-exact comparison where
// boxes meet (packed TMEM bytes, swizzled shared buffers), and the totals against the target.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "kernel_check_test_util.hpp"

namespace tirx::kernel {
namespace {

using test::load;
using test::the_finding;

std::string model(const std::string& buffers, const std::string& ops = "[]") {
  return fmt::format(R"({{"format": 2, "kernel": "k", "target": "sm_100a", "buffers": [{}], "ops": {}}})", buffers,
                     ops);
}

std::string tmem(const std::string& name, const std::string& shape, const std::string& dtype,
                 const std::string& layout, int col) {
  return fmt::format(R"({{"name": "{}", "scope": "tmem", "shape": {}, "dtype": "{}", "layout": "{}",
    "placement": {{"col": {}}}}})",
                     name, shape, dtype, layout, col);
}

std::string smem(const std::string& name, const std::string& shape, const std::string& dtype,
                 const std::string& layout, std::int64_t offset) {
  return fmt::format(R"({{"name": "{}", "scope": "shared.dyn", "shape": {}, "dtype": "{}", "layout": "{}",
    "placement": {{"offset_bytes": {}}}}})",
                     name, shape, dtype, layout, offset);
}

// The kernel-level totals finding (subject: the kernel) whose message starts with `prefix`.
KernelFinding total(const test::Loaded& l, const std::string& prefix) {
  for (auto& f : find_kernel_check("kernel.overlap")->run(l.ctx))
    if (f.message.rfind(prefix, 0) == 0) return f;
  ADD_FAILURE() << "no totals finding starting with " << prefix;
  return {};
}

TEST(Overlap, DisjointTmemColumnsPassByTheirBoxes) {
  auto l = load(model(tmem("a", "[128, 64]", "float32", "S[(128,64):(1@TLane,1@TCol)]", 0) + "," +
                      tmem("b", "[128, 64]", "float32", "S[(128,64):(1@TLane,1@TCol)]", 64)));
  const KernelFinding a = the_finding(*l, "kernel.overlap", "a");
  EXPECT_EQ(a.status, prove::Status::kPass);
  EXPECT_NE(a.message.find("TMEM lanes [0, 127] x columns [0, 63]"), std::string::npos) << a.message;
  EXPECT_EQ(total(*l, "TMEM").status, prove::Status::kPass);
  EXPECT_NE(total(*l, "TMEM").message.find("reach column 128"), std::string::npos) << total(*l, "TMEM").message;
}

TEST(Overlap, SharedColumnsFailWithTheFirstCommonCell) {
  auto l = load(model(tmem("a", "[128, 64]", "float32", "S[(128,64):(1@TLane,1@TCol)]", 0) + "," +
                      tmem("b", "[128, 64]", "float32", "S[(128,64):(1@TLane,1@TCol)]", 32)));
  const KernelFinding a = the_finding(*l, "kernel.overlap", "a");
  ASSERT_EQ(a.status, prove::Status::kFail) << a.message;
  EXPECT_EQ(a.related, std::vector<std::string>{"b"});
  EXPECT_EQ(a.witness["cell"]["TCol"], 32);
  EXPECT_EQ(a.witness["a"]["element"], nlohmann::json::array({0, 32}));
  EXPECT_EQ(a.witness["b"]["element"], nlohmann::json::array({0, 0}));
  EXPECT_EQ(a.witness["shared_units"], 128 * 32 * 4);  // 32 columns x 128 lanes x 4 bytes
}

TEST(Overlap, PackedBytesOfOneColumnAreComparedByteByByte) {
  // Two 8-bit scale-factor buffers in the same TMEM columns, bytes 0-1 and 2-3 of each cell: the
  // boxes meet, the bitmaps do not.
  const std::string lo = tmem("sf_lo", "[128, 8]", "float8_e8m0fnu", "S[(128,4,2):(1@TLane,4@TCol,1@TCol)]", 0);
  const std::string hi = tmem("sf_hi", "[128, 8]", "float8_e8m0fnu", "S[(128,4,2):(1@TLane,4@TCol,1@TCol)] + 2@TCol", 0);
  auto l = load(model(lo + "," + hi));
  const KernelFinding f = the_finding(*l, "kernel.overlap", "sf_lo");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_NE(f.message.find("1024 bytes compared byte by byte"), std::string::npos) << f.message;
  // Shifted by one byte, the third byte of each cell is claimed twice.
  const std::string clash =
      tmem("sf_hi", "[128, 8]", "float8_e8m0fnu", "S[(128,4,2):(1@TLane,4@TCol,1@TCol)] + 1@TCol", 0);
  auto bad = load(model(lo + "," + clash));
  const KernelFinding g = the_finding(*bad, "kernel.overlap", "sf_lo");
  ASSERT_EQ(g.status, prove::Status::kFail);
  EXPECT_EQ(g.witness["cell"]["byte"], 1);
}

TEST(Overlap, ASwizzledBufferIsWidenedThenComparedExactly) {
  // 128B swizzle over 8 rows of 64 fp16 (1024 bytes at 0) and a buffer right after it: the
  // widened box of the swizzled buffer is exact here ([0, 1023]) and does not meet [1024, ...].
  const std::string sw = smem("s", "[8, 64]", "float16",
                              R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (8, 64)))", 0);
  const std::string next = smem("t", "[512]", "float16", "S[512:1]", 1024);
  auto l = load(model(sw + "," + next));
  EXPECT_EQ(the_finding(*l, "kernel.overlap", "s").status, prove::Status::kPass);
  const KernelFinding t = total(*l, "shared memory");
  EXPECT_NE(t.message.find("reach byte 2048 (t)"), std::string::npos) << t.message;
  // Placed one row (128 bytes) into the swizzled buffer, the second buffer collides with its last row.
  auto bad = load(model(sw + "," + smem("t", "[512]", "float16", "S[512:1]", 896)));
  const KernelFinding f = the_finding(*bad, "kernel.overlap", "s");
  ASSERT_EQ(f.status, prove::Status::kFail) << f.message;
  EXPECT_EQ(f.witness["cell"]["smem_byte"], 896);
  EXPECT_EQ(f.witness["shared_units"], 128);
}

TEST(Overlap, TotalsFailPastTheTargetWithTheExactReach) {
  // 232448 bytes per CTA on sm_100a (models/targets): a buffer ending at byte 240000.
  auto l = load(model(smem("big", "[120000]", "float16", "S[120000:1]", 0)));
  const KernelFinding t = total(*l, "shared memory");
  ASSERT_EQ(t.status, prove::Status::kFail) << t.message;
  EXPECT_EQ(t.witness["needed_bytes"], 240000);
  EXPECT_EQ(t.witness["capacity_bytes"], 232448);
}

TEST(Overlap, BuffersLiveAtDifferentTimesMayShareStorage) {
  const std::string ops = R"([{"name": "w", "kind": "smem.access", "direction": "store", "warps": [0],
      "regs": "r[:]", "smem": "a[0:32]", "access_bytes": 4},
     {"name": "x", "kind": "smem.access", "direction": "store", "warps": [0],
      "regs": "r[:]", "smem": "b[0:32]", "access_bytes": 4}])";
  const std::string reg = R"({"name": "r", "scope": "local", "shape": [32], "dtype": "float32", "layout": "S[32:1@laneid]"})";
  std::string a = smem("a", "[32]", "float32", "S[32:1]", 0), b = smem("b", "[32]", "float32", "S[32:1]", 0);
  a.insert(a.size() - 1, R"(, "live": ["w", "w"])");
  b.insert(b.size() - 1, R"(, "live": ["x", "x"])");
  auto l = load(model(reg + "," + a + "," + b, ops));
  EXPECT_EQ(the_finding(*l, "kernel.overlap", "a").status, prove::Status::kPass);
  EXPECT_EQ(the_finding(*l, "kernel.overlap", "b").status, prove::Status::kPass);
}

// A shared view lies inside its base's bytes: a 64-element float16 view 64 bytes into a base of
// 128 bytes reaches bytes 128..191, past the base's last byte 127 (placed at 0); the finding
// names the first byte outside, 128 (element [32]).
TEST(Overlap, ASharedViewPastItsBaseFails) {
  auto view = [](std::int64_t offset) {
    return fmt::format(R"({{"name": "v", "scope": "shared.dyn", "shape": [64], "dtype": "float16", "layout": "S[64:1]",
      "view_of": {{"buffer": "base", "offset_bytes": {}}}}})",
                       offset);
  };
  const std::string base = smem("base", "[64]", "float16", "S[64:1]", 0);
  auto inside = load(model(base + "," + view(0)));
  EXPECT_EQ(the_finding(*inside, "kernel.overlap", "v").status, prove::Status::kPass);
  auto past = load(model(base + "," + view(64)));
  const KernelFinding f = the_finding(*past, "kernel.overlap", "v");
  ASSERT_EQ(f.status, prove::Status::kFail) << f.message;
  EXPECT_NE(f.message.find("view 'v' reaches shared byte 128 (its element [32]), outside the storage of its base "
                           "'base' (shared bytes [0, 127])"),
            std::string::npos)
      << f.message;
  EXPECT_EQ(f.related, std::vector<std::string>{"base"});
  EXPECT_EQ(f.witness["element"], nlohmann::json::array({32}));
}

}  // namespace
}  // namespace tirx::kernel
