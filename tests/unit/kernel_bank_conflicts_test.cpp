// smem.bank-conflicts on the ops of a kernel (src/kernel/checks/bank_conflicts.cpp): wavefront
// counts of known patterns, the witness, the fixes, ldmatrix rows, accesses that are not one
// vector, and agreement with the buffer-level check of the same id.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::kernel {
namespace {

const hw::Target& target() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

std::vector<KernelFinding> banks(const std::string& buffers, const std::string& ops) {
  const KernelModel m =
      parse_model(R"({"format": 2, "kernel": "k", "buffers": [)" + buffers + R"(], "ops": [)" + ops + "]}", "m.json");
  const KernelGraph g = build_graph(m);
  const KernelContext ctx = make_context(m, g, target(), {});
  return find_kernel_check("smem.bank-conflicts")->run(ctx);
}

std::string smem_buffers(const std::string& smem_layout, const std::string& frag_layout, const std::string& dtype,
                         const std::string& shape) {
  return R"({"name": "s", "scope": "shared.dyn", "shape": )" + shape + R"(, "dtype": ")" + dtype +
         R"(", "layout": ")" + smem_layout + R"(", "placement": {"offset_bytes": 1024}},
    {"name": "r", "scope": "local", "shape": )" + shape + R"(, "dtype": ")" + dtype + R"(", "layout": ")" +
         frag_layout + R"("})";
}

std::string access(const std::string& dir, int bytes, const std::string& warps = "[0]") {
  return R"({"name": "a", "kind": "smem.access", "direction": ")" + dir + R"(", "warps": )" + warps +
         R"(, "access_bytes": )" + std::to_string(bytes) + R"(, "smem": "s", "regs": "r"})";
}

TEST(KernelBankConflicts, OneWordPerThreadInARowIsIdeal) {
  const auto fs = banks(smem_buffers("S[(32,4):(1,32)]", "S[(32,4):(1@laneid,1)]", "float32", "[32, 4]"),
                        access("load", 4));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].subject_kind, "op");
  EXPECT_EQ(fs[0].subject, "a");
  EXPECT_EQ(fs[0].status, prove::Status::kPass) << fs[0].message;
  EXPECT_NE(fs[0].message.find("4 warp-wide 4-byte loads of 's'"), std::string::npos) << fs[0].message;
  EXPECT_NE(fs[0].message.find("(4 in all)"), std::string::npos) << fs[0].message;
}

TEST(KernelBankConflicts, AColumnOfAPowerOfTwoRowIsThirtyTwoWay) {
  // Thread t reads row t of a 32-word row: every address is in bank 0.
  const auto fs = banks(smem_buffers("S[(32,32):(32,1)]", "S[(32,32):(1@laneid,1)]", "float32", "[32, 32]"),
                        access("load", 4));
  ASSERT_EQ(fs.size(), 1u);
  const KernelFinding& f = fs[0];
  EXPECT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.witness["wavefronts"], 32);
  EXPECT_EQ(f.witness["ideal"], 1);
  EXPECT_EQ(f.witness["bank"], 0);
  EXPECT_EQ(f.witness["threads"].size(), 32u);
  EXPECT_EQ(f.witness["addresses"][1], 1024 + 128);
  EXPECT_EQ(f.witness["op_wavefronts"], 32 * 32);
  EXPECT_EQ(f.witness["op_ideal"], 32);
  EXPECT_NE(f.fix.find("rows 128 bytes apart: a row pitch of 132 bytes"), std::string::npos) << f.fix;
  // The padded pitch the fix proposes is conflict-free.
  const auto ok = banks(smem_buffers("S[(32,32):(33,1)]", "S[(32,32):(1@laneid,1)]", "float32", "[32, 32]"),
                        access("load", 4));
  EXPECT_EQ(ok[0].status, prove::Status::kPass) << ok[0].message;
}

TEST(KernelBankConflicts, AgreesWithTheBufferLevelCheck) {
  // The same fragment and shared layout through `check --access`: same worst instruction.
  const std::string smem = "S[(64,8):(64,1)]", frag = "S[(2,32,8):(8,1@laneid,1)]";
  const auto fs = banks(smem_buffers(smem, frag, "float16", "[64, 8]"), access("load", 16));
  ASSERT_EQ(fs.size(), 1u);
  prove::CheckInput in;
  in.layout = parse_layout(smem);
  in.access = parse_layout(frag);
  in.access_bytes = 16;
  in.elem_bits = 16;
  in.scope = prove::Scope::kShared;
  in.target = &target();
  in.machine = prove::machine_limits(target());
  const prove::CheckResult r = prove::find_check("smem.bank-conflicts")->run(in);
  ASSERT_EQ(r.status, prove::Status::kFail) << r.message;
  ASSERT_EQ(fs[0].status, prove::Status::kFail) << fs[0].message;
  EXPECT_EQ(fs[0].witness["wavefronts"], 32);  // 4 phases of 8 threads, each 8-way
  {
    EXPECT_EQ(r.witness["wavefronts"], fs[0].witness["wavefronts"]) << r.message << " / " << fs[0].message;
    EXPECT_EQ(r.witness["ideal"], fs[0].witness["ideal"]);
  }
}

TEST(KernelBankConflicts, AnAccessThatIsNotOneVectorIsAnError) {
  // Each thread's two floats are 128 bytes apart: no ld.shared.v2 moves them.
  const auto fs = banks(smem_buffers("S[(32,2):(1,32)]", "S[(32,2):(1@laneid,1)]", "float32", "[32, 2]"),
                        access("load", 8));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].status, prove::Status::kFail);
  EXPECT_EQ(fs[0].severity, Severity::kError);
  EXPECT_EQ(fs[0].witness["lane"], 0);
  EXPECT_EQ(fs[0].witness["address"], 1024 + 128);
  EXPECT_NE(fs[0].message.find("one vector needs byte 1028"), std::string::npos) << fs[0].message;
}

TEST(KernelBankConflicts, LdmatrixRowsComeFromTheFragment) {
  // ldmatrix.x1 of an 8x8 b16 tile: thread t holds row t/4, columns 2(t%4), +1. Rows 16 bytes
  // apart are conflict-free (1 wavefront); rows 128 bytes apart all hit bank 0 (8).
  const std::string frag = "S[(8,4,2):(4@laneid,1@laneid,1)]";
  auto op = R"({"name": "ld", "kind": "ldmatrix", "num": 1, "warps": [0], "smem": "s", "regs": "r"})";
  const auto dense = banks(smem_buffers("S[(8,8):(8,1)]", frag, "float16", "[8, 8]"), op);
  ASSERT_EQ(dense.size(), 1u);
  EXPECT_EQ(dense[0].status, prove::Status::kPass) << dense[0].message;
  const auto strided = banks(smem_buffers("S[(8,8):(64,1)]", frag, "float16", "[8, 8]"), op);
  ASSERT_EQ(strided.size(), 1u);
  EXPECT_EQ(strided[0].status, prove::Status::kFail) << strided[0].message;
  EXPECT_EQ(strided[0].witness["wavefronts"], 8);
  EXPECT_EQ(strided[0].witness["ideal"], 1);
  EXPECT_EQ(strided[0].witness["rows"], nlohmann::json::array({0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(KernelBankConflicts, ATileLevelLdstmatrixCopyIsNotApplicable) {
  const auto fs = banks(smem_buffers("S[(8,8):(8,1)]", "S[(8,4,2):(4@laneid,1@laneid,1)]", "float16", "[8, 8]"),
                        R"({"name": "c", "kind": "copy", "dispatch": "ldstmatrix", "warps": [0], "dst": "s", "src": "r"})");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].status, prove::Status::kNotApplicable);
  EXPECT_NE(fs[0].message.find("tile-level ldstmatrix copy"), std::string::npos) << fs[0].message;
}

}  // namespace
}  // namespace tirx::kernel
