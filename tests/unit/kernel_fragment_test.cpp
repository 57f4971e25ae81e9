// kernel.fragment (src/kernel/checks/fragment.cpp): ldmatrix rows vs the fragment, the mma.sync
// m16n8k16 A/B/C and wgmma D fragments vs hw/mma_fragments.hpp, with the witness of the first
// mismatch and the fixes.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/hw/mma_fragments.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/model.hpp"

namespace tirx::kernel {
namespace {

std::vector<KernelFinding> fragment(const std::string& buffers, const std::string& ops) {
  static const hw::Target target = hw::load_target("sm_100a");
  const KernelModel m =
      parse_model(R"({"format": 2, "kernel": "k", "buffers": [)" + buffers + R"(], "ops": [)" + ops + "]}", "m.json");
  const KernelGraph g = build_graph(m);
  const KernelContext ctx = make_context(m, g, target, {});
  return find_kernel_check("kernel.fragment")->run(ctx);
}

// The m16n8k16 fragments in the notation (element (row, col) -> lane, register slot).
const char* kA = "S[(2,8,2,4,2):(2,4@laneid,4,1@laneid,1)]";  // (m, k): m = 8 mh + g, k = 8 kh + 2 q + e
const char* kB = "S[(8,2,4,2):(4@laneid,2,1@laneid,1)]";      // (n, k)
const char* kC = "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]";      // (m, n)

std::string mma_model(const std::string& a, const std::string& b, const std::string& c, const char* c_dtype = "float32") {
  return std::string(R"({"name": "a", "scope": "local", "shape": [16, 16], "dtype": "float16", "layout": ")") + a +
         R"("}, {"name": "b", "scope": "local", "shape": [8, 16], "dtype": "float16", "layout": ")" + b +
         R"("}, {"name": "c", "scope": "local", "shape": [16, 8], "dtype": ")" + c_dtype + R"(", "layout": ")" + c +
         R"("})";
}
const char* kMma = R"({"name": "mma", "kind": "mma.sync", "shape": "m16n8k16", "warps": [3], "a": "a", "b": "b", "c": "c"})";

TEST(KernelFragment, TheMmaSyncFragmentsOfThePtxFiguresPass) {
  // The notation layouts above equal hw::mma_m16n8k16_* for every thread and element.
  for (int t = 0; t < 32; ++t)
    for (int i = 0; i < hw::kMmaAElems; ++i) {
      const hw::RowCol rc = hw::mma_m16n8k16_a(t, i);
      EXPECT_EQ(rc.row, t / 4 + 8 * ((i >> 1) & 1));
      EXPECT_EQ(rc.col, 2 * (t % 4) + (i & 1) + 8 * (i >> 2));
    }
  const auto fs = fragment(mma_model(kA, kB, kC), kMma);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].status, prove::Status::kPass) << fs[0].message;
  EXPECT_EQ(fs[0].related, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(KernelFragment, AnFp16AccumulatorPacksTwoElementsPerRegister) {
  const auto fs = fragment(mma_model(kA, kB, kC, "float16"), kMma);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].status, prove::Status::kPass) << fs[0].message;
}

TEST(KernelFragment, ATransposedAOperandIsNamedWithItsFix) {
  // A laid out as its transpose: the fragment holds (r, c) where the instruction puts (c, r).
  const auto fs = fragment(mma_model("S[(2,4,2,2,8):(4,1@laneid,1,2,4@laneid)]", kB, kC), kMma);
  ASSERT_EQ(fs.size(), 1u);
  const KernelFinding& f = fs[0];
  EXPECT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["operand"], "A");
  EXPECT_EQ(f.witness["fragment"]["warp"], 3);
  EXPECT_EQ(f.witness["fragment"]["lane"], 0);
  EXPECT_EQ(f.witness["instruction"]["index"], 1);  // thread 0's element 1 is (0, 1)
  EXPECT_EQ(f.witness["instruction"]["row"], 0);
  EXPECT_EQ(f.witness["instruction"]["col"], 1);
  EXPECT_EQ(f.witness["element"], nlohmann::json::array({1, 0}));
  EXPECT_NE(f.fix.find("operand A transposed"), std::string::npos) << f.fix;
}

TEST(KernelFragment, AnOperandOfTheWrongShapeOrTypeFails) {
  auto fs = fragment(mma_model(kA, kB, kC, "bfloat16").replace(mma_model(kA, kB, kC, "bfloat16").find("float16"), 7,
                                                                 "float32"),
                     kMma);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].status, prove::Status::kFail);
  EXPECT_NE(fs[0].message.find("operand A 'a' is float32 (32-bit elements)"), std::string::npos) << fs[0].message;
}

// ldmatrix.x1 of an 8x8 fp16 tile at byte 256 of shared memory.
std::string ldm_model(const std::string& smem_layout, const std::string& frag) {
  return R"({"name": "s", "scope": "shared.dyn", "shape": [8, 8], "dtype": "float16", "layout": ")" + smem_layout +
         R"(", "placement": {"offset_bytes": 256}},
    {"name": "r", "scope": "local", "shape": [8, 8], "dtype": "float16", "layout": ")" + frag + R"("})";
}
std::string ldm(bool trans) {
  return std::string(R"({"name": "ld", "kind": "ldmatrix", "num": 1, "warps": [0], "smem": "s", "regs": "r")") +
         (trans ? R"(, "trans": true})" : "}");
}

TEST(KernelFragment, LdmatrixRowsMustBeContiguousAndAligned) {
  const std::string frag = "S[(8,4,2):(4@laneid,1@laneid,1)]";  // thread t: row t/4, cols 2(t%4), +1
  auto ok = fragment(ldm_model("S[(8,8):(8,1)]", frag), ldm(false));
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].status, prove::Status::kPass) << ok[0].message;
  // Rows with a 12-element pitch: row 1 starts at byte 256 + 24, not 16-byte aligned.
  auto bad = fragment(ldm_model("S[(8,8):(12,1)]", frag), ldm(false));
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0].status, prove::Status::kFail);
  EXPECT_NE(bad[0].message.find("row 1 of matrix 0 at byte 280, not 16-byte aligned"), std::string::npos)
      << bad[0].message;
  // The same fragment through .trans: the element in register 0 bits 16..31 of thread 0 is
  // (row 1, col 0) of the stored matrix, which the fragment keeps at byte 258.
  auto tr = fragment(ldm_model("S[(8,8):(8,1)]", frag), ldm(true));
  ASSERT_EQ(tr.size(), 1u);
  EXPECT_EQ(tr[0].status, prove::Status::kFail);
  EXPECT_EQ(tr[0].witness["instruction"]["row"], 1);
  EXPECT_EQ(tr[0].witness["instruction"]["col"], 0);
  EXPECT_EQ(tr[0].witness["fragment_byte"], 258);
  EXPECT_NE(tr[0].fix.find("drop .trans"), std::string::npos) << tr[0].fix;
}

TEST(KernelFragment, ATransposedTileNeedsTrans) {
  // The fragment holds the tile transposed (thread t: column t/4, rows 2(t%4), +1): .trans.
  const std::string frag = "S[(4,2,8):(1@laneid,1,4@laneid)]";
  auto plain = fragment(ldm_model("S[(8,8):(8,1)]", frag), ldm(false));
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].status, prove::Status::kFail);
  EXPECT_NE(plain[0].fix.find("use ldmatrix.trans"), std::string::npos) << plain[0].fix;
  auto tr = fragment(ldm_model("S[(8,8):(8,1)]", frag), ldm(true));
  EXPECT_EQ(tr[0].status, prove::Status::kPass) << tr[0].message;
}

TEST(KernelFragment, WgmmaNeedsAWholeWarpgroup) {
  const std::string bufs = R"(
    {"name": "A", "scope": "shared.dyn", "shape": [64, 16], "dtype": "float16", "layout": "S[(64,16):(16,1)]",
     "placement": {"offset_bytes": 0}},
    {"name": "B", "scope": "shared.dyn", "shape": [8, 16], "dtype": "float16", "layout": "S[(8,16):(16,1)]",
     "placement": {"offset_bytes": 4096}},
    {"name": "D", "scope": "local", "shape": [64, 8], "dtype": "float32",
     "layout": "S[(4,2,8,4,2):(1@wid_in_wg,2,4@laneid,1@laneid,1)]"})";
  auto op = [](const std::string& warps) {
    return R"({"name": "w", "kind": "wgmma", "m": 64, "n": 8, "k": 16, "warps": )" + warps + R"(,
      "a_desc": {"start": "A[0, 0]", "lbo_bytes": 128, "sbo_bytes": 256, "swizzle": "none", "major": "K"},
      "b_desc": {"start": "B[0, 0]", "lbo_bytes": 128, "sbo_bytes": 256, "swizzle": "none", "major": "K"},
      "a": "A", "b": "B", "d": "D"})";
  };
  auto ok = fragment(bufs, op("[4, 5, 6, 7]"));
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].status, prove::Status::kPass) << ok[0].message;
  auto bad = fragment(bufs, op("[2, 3, 4, 5]"));
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0].status, prove::Status::kFail);
  EXPECT_NE(bad[0].message.find("the four warps 4g .. 4g+3"), std::string::npos) << bad[0].message;
}

}  // namespace
}  // namespace tirx::kernel
