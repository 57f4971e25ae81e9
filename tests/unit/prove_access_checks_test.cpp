// Checks that need an access fragment: tmem.partition, tmem.datapath, smem.bank-conflicts.
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {
namespace {
using namespace tirx::test;

const hw::Target& sm100() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

CheckInput tmem_input(TileLayout tmem, TileLayout frag, std::int64_t rows, std::int64_t cols, int bits = 32) {
  CheckInput in;
  in.layout = std::move(tmem);
  in.access = Layout(std::move(frag));
  in.scope = Scope::kTmem;
  in.shape = std::vector<std::int64_t>{rows, cols};
  in.elem_bits = bits;
  in.dtype = bits == 16 ? "float16" : "float32";
  in.machine = prove::machine_limits(sm100());
  in.target = &sm100();
  return in;
}

CheckResult run(std::string_view id, const CheckInput& in) { return find_check(id)->run(in); }

TEST(TmemDatapath, EveryFactoryPairingAgreesWithTheSimulator) {
  const DType f32 = DType::parse("float32"), f16 = DType::parse("float16");
  int pairs = 0;
  for (const DType& dt : {f32, f16})
    for (const char* shape : {"16x64b", "16x128b", "16x256b"})
      for (std::int64_t cols : {32, 64}) {
        // Layout D with a 128-row fragment (two issues), F sub_slab 0/1 with a 64-row one.
        auto d = tmem_input(tmem_datapath_layout("D", 128, cols), tcgen05_atom_layout(shape, 128, cols, dt), 128, cols,
                            dt.bits);
        const auto rd = run("tmem.datapath", d);
        EXPECT_EQ(rd.status, Status::kPass) << shape << " " << cols << " " << rd.message;
        EXPECT_NE(rd.message.find("at row 16"), std::string::npos) << rd.message;
        for (int s : {0, 1}) {
          auto f = tmem_input(tmem_datapath_layout("F", 64, cols, s), tcgen05_atom_layout(shape, 64, cols, dt), 64, cols,
                              dt.bits);
          const auto rf = run("tmem.datapath", f);
          EXPECT_EQ(rf.status, Status::kPass) << shape << " F" << s << " " << rf.message;
          EXPECT_NE(rf.message.find(s ? "at row 16" : "at row 0"), std::string::npos) << rf.message;
          EXPECT_EQ(run("tmem.partition", f).status, Status::kPass);
          ++pairs;
        }
      }
  EXPECT_EQ(pairs, 24);
}

TEST(TmemDatapath, WrongRowImmediateGivesTheElementAndBothCells) {
  // apache/tvm#20068: the upper F view emitted with row 0 reads the lower half-slab.
  auto in = tmem_input(tmem_datapath_layout("F", 64, 32, 1), tcgen05_atom_layout("16x64b", 64, 32, DType::parse("float32")),
                       64, 32);
  in.row_imm = 0;
  const auto r = run("tmem.datapath", in);
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.witness["element"]["logical"], nlohmann::json({0, 0}));
  EXPECT_EQ(r.witness["layout"]["lane"], 16);
  EXPECT_EQ(r.witness["instruction"]["lane"], 0);
  in.row_imm = 16;
  EXPECT_EQ(run("tmem.datapath", in).status, Status::kPass);
}

TEST(TmemDatapath, RejectsUnknownDataPathsAndFragments) {
  const DType f32 = DType::parse("float32");
  // A transposed accumulator is no data path.
  auto t = tmem_input(TL({I(128, 1, "TCol"), I(32, 1, "TLane")}), tcgen05_atom_layout("32x32b", 128, 32, f32), 128, 32);
  EXPECT_EQ(run("tmem.datapath", t).status, Status::kFail);
  // A fragment that is no tcgen05 atom.
  auto f = tmem_input(tmem_datapath_layout("D", 128, 32), TL({I(128, 1, "tid_in_wg"), I(32, 2)}), 128, 32);
  EXPECT_EQ(run("tmem.datapath", f).status, Status::kFail);
  // Layout B with a .16x*b fragment is not a dispatcher pairing.
  auto b = tmem_input(tmem_datapath_layout("B", 64, 64), tcgen05_atom_layout("16x256b", 64, 64, f32), 64, 64);
  const auto rb = run("tmem.datapath", b);
  EXPECT_EQ(rb.status, Status::kFail);
  EXPECT_EQ(rb.witness["datapath"], "Layout B");
  // Without a fragment the checks do not apply.
  auto none = t;
  none.access.reset();
  EXPECT_EQ(run("tmem.datapath", none).status, Status::kNotApplicable);
  EXPECT_EQ(run("tmem.partition", none).status, Status::kNotApplicable);
}

TEST(TmemPartition, ElementOutsideTheHoldingWarpsLanes) {
  // Warp w holds rows 32w..32w+31 (32x32b fragment) but the TMEM layout shifts rows by 32 lanes.
  const DType f32 = DType::parse("float32");
  auto in = tmem_input(TL({I(128, 1, "TLane"), I(32, 1, "TCol")}), tcgen05_atom_layout("32x32b", 128, 32, f32), 128, 32);
  EXPECT_EQ(run("tmem.partition", in).status, Status::kPass);
  in.layout = TL({I(4, 32, "TLane"), I(32, 1, "TLane"), I(32, 1, "TCol")});
  in.layout = TL({I(2, 64, "TLane"), I(2, 32, "TLane"), I(32, 1, "TLane"), I(32, 1, "TCol")});
  EXPECT_EQ(run("tmem.partition", in).status, Status::kPass);
  in.layout = TL({I(2, 32, "TLane"), I(2, 64, "TLane"), I(32, 1, "TLane"), I(32, 1, "TCol")});  // rows 32..63 -> lanes 64..95
  const auto r = run("tmem.partition", in);
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.witness["element"]["logical"], nlohmann::json({32, 0}));
  EXPECT_EQ(r.witness["warp"], 1);
  EXPECT_EQ(r.witness["lanes"], nlohmann::json({64}));
  EXPECT_EQ(r.witness["allowed"], nlohmann::json({32, 63}));
  // Scale factors: the copy in the warp's own sub-partition is the one it reads.
  auto sf = tmem_input(TL({I(32, 1, "TLane"), I(4, 1, "TCol")}, {I(4, 32, "TLane")}),
                       TL({I(4, 0, "wid_in_wg"), I(32, 1, "laneid"), I(4, 1)}), 32, 4, 8);
  sf.layout = TL({I(32, 1, "TLane"), I(4, 1, "TCol")}, {I(4, 32, "TLane")});
  sf.access = Layout(TL({I(32, 1, "laneid"), I(4, 1)}, {I(4, 1, "wid_in_wg")}));
  EXPECT_EQ(run("tmem.partition", sf).status, Status::kPass);
}

// 2^62 TMEM cells (128 lanes x 2^55 columns) read by a warpgroup: the symbolic partition query
// with constants takes terms up to 2^63 (66-bit and wider vectors); before, 2^62 was outside
// the encoding and the check was undecided. A shifted warp is found and its element named.
TEST(TmemPartition, TwoToTheSixtyTwoCells) {
  const std::int64_t cols = std::int64_t{1} << 55;
  auto in = tmem_input(TL({I(128, 1, "TLane"), I(cols, 1, "TCol")}),
                       TL({I(4, 1, "warpid"), I(32, 1, "laneid"), I(cols, 1)}), 128, cols);
  in.shape.reset();
  const auto ok = run("tmem.partition", in);
  EXPECT_EQ(ok.status, Status::kPass) << ok.message;
  EXPECT_EQ(ok.engine, "z3");
  in.access = Layout(TL({I(4, 1, "warpid"), I(32, 1, "laneid"), I(cols, 1)}, {}, {{"warpid", 1}}));
  const auto bad = run("tmem.partition", in);
  ASSERT_EQ(bad.status, Status::kFail) << bad.message;
  // Element e of warp w = e / (32 * cols) sits in lane 32 w + e / cols % 32, held by warp w + 1.
  const std::int64_t e = bad.witness["element"]["flat"];
  const std::int64_t w = e / (32 * cols);
  EXPECT_EQ(bad.witness["lanes"], nlohmann::json({32 * w + (e / cols) % 32}));
  EXPECT_EQ(bad.witness["warp"], (w + 1) % 4);
}

CheckInput smem_input(Layout buf, TileLayout frag, int bits, int bytes) {
  CheckInput in;
  in.layout = std::move(buf);
  in.access = Layout(std::move(frag));
  in.scope = Scope::kShared;
  in.elem_bits = bits;
  in.access_bytes = bytes;
  in.machine = prove::machine_limits(sm100());
  in.target = &sm100();
  return in;
}

TEST(BankConflicts, RowReadsWithAndWithoutSwizzle) {
  // 32 threads each read one 128-byte fp16 row, 16 bytes at a time.
  const TileLayout rows = TL({I(32, 64), I(64, 1)});
  const TileLayout frag = TL({I(32, 1, "laneid"), I(64, 1)});
  const auto bad = run("smem.bank-conflicts", smem_input(rows, frag, 16, 16));
  ASSERT_EQ(bad.status, Status::kFail);
  EXPECT_EQ(bad.witness["wavefronts"], 32);
  EXPECT_EQ(bad.witness["ideal"], 4);
  EXPECT_EQ(bad.witness["threads"], nlohmann::json({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(run("smem.bank-conflicts", smem_input(CL(3, 3, 3, rows), frag, 16, 16)).status, Status::kPass);
  // Padding each row by 16 bytes (8 fp16) also removes the conflict.
  EXPECT_EQ(run("smem.bank-conflicts", smem_input(TL({I(32, 72), I(64, 1)}), frag, 16, 16)).status, Status::kPass);
  // Column reads of 4 bytes (2 fp16) by 32 threads down a 64-wide fp16 tile: all in one bank.
  const auto col = run("smem.bank-conflicts", smem_input(TL({I(32, 64), I(2, 1)}), TL({I(32, 1, "laneid"), I(2, 1)}), 16, 4));
  ASSERT_EQ(col.status, Status::kFail);
  EXPECT_EQ(col.witness["wavefronts"], 32);
}

TEST(BankConflicts, VectorMustBeContiguousInSharedMemory) {
  // A thread's 8 fp16 slots are a strided column, not a 16-byte vector.
  const auto r = run("smem.bank-conflicts",
                     smem_input(TL({I(8, 64), I(32, 1)}), TL({I(8, 1), I(32, 1, "laneid")}), 16, 16));
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_NE(r.message.find("not one contiguous 16-byte vector"), std::string::npos);
}

}  // namespace
}  // namespace tirx::prove
