// kernel.tmem-datapath (src/kernel/checks/tmem_datapath*.cpp), the tcgen05.ld/st comparison
// (kernel/tmem_access.hpp) and the tile-level lowering (kernel/lower_tcgen05.hpp) on small
// models: the verdict, the first disagreeing element with both cells, and the fix.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/lower_tcgen05.hpp"
#include "tirx_verify/kernel/model.hpp"

namespace tirx::kernel {
namespace {

const hw::Target& target() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

// A 128 x 512 fp32 accumulator at column 0 with views and fragments, operand tiles, a 512-column
// allocation; `extra_buffers` and `ops` are spliced in (ops after the allocation).
std::string model(const std::string& ops, const std::string& extra_buffers = "", int alloc_cols = 512) {
  return R"J({"format": 2, "kernel": "t", "buffers": [
 {"name": "Asmem", "scope": "shared.dyn", "shape": [128, 64], "dtype": "float16",
  "layout": "mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (128, 64))",
  "placement": {"offset_bytes": 1024, "align_bytes": 1024}},
 {"name": "A64", "scope": "shared.dyn", "shape": [64, 64], "dtype": "float16",
  "layout": "mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (64, 64))",
  "placement": {"offset_bytes": 17408, "align_bytes": 1024}},
 {"name": "Bsmem", "scope": "shared.dyn", "shape": [256, 64], "dtype": "float16",
  "layout": "mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (256, 64))",
  "placement": {"offset_bytes": 25600, "align_bytes": 1024}},
 {"name": "acc", "scope": "tmem", "shape": [128, 512], "dtype": "float32",
  "layout": "S[(128,512):(1@TLane,1@TCol)]", "placement": {"col": 0}},
 {"name": "acc_hi", "scope": "tmem", "shape": [64, 32], "dtype": "float32",
  "layout": "tmem_datapath_layout(\"F\", 64, 32, sub_slab=1)", "view_of": {"buffer": "acc"}},
 {"name": "acc64", "scope": "tmem", "shape": [64, 128], "dtype": "float32",
  "layout": "S[(64,128):(1@TLane,1@TCol)]", "view_of": {"buffer": "acc"}},
 {"name": "accF", "scope": "tmem", "shape": [64, 64], "dtype": "float32",
  "layout": "tmem_datapath_layout(\"F\", 64, 64)", "view_of": {"buffer": "acc"}},
 {"name": "frag", "scope": "local", "shape": [128, 32], "dtype": "float32", "layout": "wg_local_layout(32)"},
 {"name": "frag64", "scope": "local", "shape": [64, 32], "dtype": "float32",
  "layout": "tcgen05_atom_layout(\"16x256b\", (64, 32), \"float32\")"},
 {"name": "dfrag", "scope": "local", "shape": [64, 4], "dtype": "float32",
  "layout": "S[(4,16,4):(32@tid_in_wg,1@tid_in_wg,1)]"})J" +
         extra_buffers + R"(],
 "ops": [{"name": "alloc", "kind": "tcgen05.alloc", "warps": [0], "cols": )" +
         std::to_string(alloc_cols) + "}" + (ops.empty() ? "" : ", ") + ops + "]}";
}

const char* kDesc = R"("a_desc": {"start": "Asmem[0, 0]", "lbo_bytes": 16, "sbo_bytes": 1024, "swizzle": "128B"},
 "b_desc": {"start": "Bsmem[0, 0]", "lbo_bytes": 16, "sbo_bytes": 1024, "swizzle": "128B"})";

struct CheckRun {
  KernelModel m;
  std::vector<KernelFinding> findings;
  const KernelFinding* of(const std::string& subject) const {
    for (const auto& f : findings)
      if (f.subject == subject) return &f;
    return nullptr;
  }
};

CheckRun run(const std::string& text, const char* check = "kernel.tmem-datapath") {
  CheckRun r;
  r.m = parse_model(text, "t.json");
  const KernelGraph g = build_graph(r.m);
  const KernelContext ctx = make_context(r.m, g, target(), {});
  r.findings = find_kernel_check(check)->run(ctx);
  return r;
}

std::string ld(const std::string& name, const std::string& shape, int num, const std::string& taddr,
               const std::string& tmem, const std::string& regs, const std::string& kind = "tcgen05.ld") {
  return R"({"name": ")" + name + R"(", "kind": ")" + kind + R"(", "shape": ")" + shape + R"(", "num": )" +
         std::to_string(num) + R"(, "warps": [0, 1, 2, 3], )" + taddr + R"(, "tmem": ")" + tmem + R"(", "regs": ")" +
         regs + R"("})";
}

TEST(KernelTmemDatapath, Ld32x32bOfLayoutDAgrees) {
  const CheckRun r = run(model(ld("ld", "32x32b", 32, R"("taddr": {"lane": 0, "col": 64})", "acc[:, 64:96]", "frag")));
  const KernelFinding* f = r.of("ld");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->status, prove::Status::kPass) << f->message;
  EXPECT_NE(f->message.find("all 4096 elements"), std::string::npos) << f->message;
  EXPECT_EQ(f->related, (std::vector<std::string>{"acc", "frag"}));
}

// apache/tvm#20068: the upper Layout F half-slab read with row immediate 0.
TEST(KernelTmemDatapath, UpperHalfSlabReadWithRowZero) {
  const CheckRun r = run(model(ld("ld", "16x256b", 4, R"("taddr": {"lane": 0, "col": 0})", "acc_hi", "frag64")));
  const KernelFinding* f = r.of("ld");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->status, prove::Status::kFail) << f->message;
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(f->witness["element"]["tmem"], nlohmann::json({0, 0}));
  EXPECT_EQ(f->witness["layout"]["lane"], 16);
  EXPECT_EQ(f->witness["register"]["warp"], 0);
  EXPECT_EQ(f->witness["register"]["lane"], 0);
  EXPECT_EQ(f->witness["register"]["reg"], 0);
  EXPECT_EQ(f->witness["instruction"]["lane_field"], 0);
  EXPECT_EQ(f->witness["instruction"]["lane"], 0);
  EXPECT_EQ(f->witness["disagreeing_elements"], 2048);
  EXPECT_EQ(f->fix, "use row immediate 16");
  // Repaired: lane field 16 from every warp.
  const CheckRun ok = run(model(ld("ld", "16x256b", 4, R"("taddr": {"lane": 16, "col": 0})", "acc_hi", "frag64")));
  EXPECT_EQ(ok.of("ld")->status, prove::Status::kPass) << ok.of("ld")->message;
}

TEST(KernelTmemDatapath, AbsoluteLaneFieldsAgreeToo) {
  const std::string per_warp =
      R"("taddr_per_warp": [{"lane": 16, "col": 0}, {"lane": 48, "col": 0}, {"lane": 80, "col": 0}, {"lane": 112, "col": 0}])";
  const CheckRun r = run(model(ld("ld", "16x256b", 4, per_warp, "acc_hi", "frag64")));
  EXPECT_EQ(r.of("ld")->status, prove::Status::kPass) << r.of("ld")->message;
}

TEST(KernelTmemDatapath, LaneFieldOfAnotherSubPartitionIsAWarning) {
  const std::string per_warp =
      R"("taddr_per_warp": [{"lane": 0, "col": 0}, {"lane": 64, "col": 0}, {"lane": 0, "col": 0}, {"lane": 0, "col": 0}])";
  const CheckRun r = run(model(ld("ld", "32x32b", 32, per_warp, "acc[:, 0:32]", "frag")));
  const KernelFinding* f = r.of("ld");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_EQ(f->message, "lane field 64 names sub-partition 2; warp 1 may access only sub-partition 1 (PTX §9.7.16.8.1)");
  EXPECT_EQ(f->witness["named_subpartition"], 2);
  EXPECT_EQ(f->witness["lane_field"]["warp"], 1);
  EXPECT_EQ(f->fix, "pass lane field 0 (warp-relative) or 32 (absolute)");
}

TEST(KernelTmemDatapath, SixteenLaneAccessCrossingItsSubPartition) {
  const CheckRun r = run(model(ld("ld", "16x256b", 4, R"("taddr": {"lane": 24, "col": 0})", "acc_hi", "frag64")));
  const KernelFinding* f = r.of("ld");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->message.find("lanes 24..39) crosses the sub-partition of warp 0 (lanes 0..31"), std::string::npos)
      << f->message;
  EXPECT_EQ(f->witness["lanes"], nlohmann::json({24, 39}));
  EXPECT_EQ(f->witness["also"].size(), 4u);  // the other three warps, and the wrong data
}

TEST(KernelTmemDatapath, FragmentCountDiffersFromTheRegisters) {
  const CheckRun r = run(model(ld("ld", "32x32b", 16, R"("taddr": {"lane": 0, "col": 0})", "acc[:, 0:32]", "frag")));
  const KernelFinding* f = r.of("ld");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->witness["fragment_elements"], 32);
  EXPECT_EQ(f->witness["instruction_registers"], 16);
  EXPECT_EQ(f->fix, "use tcgen05.ld.sync.aligned.32x32b.x32.b32 (the fragment's 32 registers per thread)");
}

TEST(KernelTmemDatapath, ColumnsPastTheAllocation) {
  const CheckRun r = run(model(ld("ld", "32x32b", 32, R"("taddr": {"lane": 0, "col": 256})", "acc[:, 256:288]", "frag"), "",
                          256));
  const KernelFinding* f = r.of("ld");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_NE(f->message.find("covers TMEM columns 256..287, past the 256 columns allocated (the kernel's tcgen05.alloc)"),
            std::string::npos)
      << f->message;
  EXPECT_EQ(f->witness["allocated_cols"], 256);
}

TEST(KernelTmemDatapath, WrongShapeWithTheSameRegisters) {
  // The fragment is the .16x256b atom; a .16x128b.x8 moves 16 registers too, other cells.
  const CheckRun r = run(model(ld("ld", "16x128b", 8, R"("taddr": {"lane": 16, "col": 0})", "acc_hi", "frag64")));
  const KernelFinding* f = r.of("ld");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->fix, "use tcgen05.ld.sync.aligned.16x256b.x4.b32");
}

TEST(KernelTmemDatapath, IdleLanesOfASixteenLaneLayout) {
  const std::string b = R"J(, {"name": "dtm", "scope": "tmem", "shape": [64, 4], "dtype": "float32",
   "layout": "tmem_datapath_layout(\"F\", 64, 4)", "view_of": {"buffer": "acc"}})J";
  const CheckRun r = run(model(ld("ld", "32x32b", 4, R"("taddr": {"lane": 0, "col": 0})", "dtm", "dfrag") + ", " +
                              ld("st", "32x32b", 4, R"("taddr": {"lane": 0, "col": 0})", "dtm", "dfrag", "tcgen05.st"),
                          b));
  EXPECT_EQ(r.of("ld")->status, prove::Status::kPass) << r.of("ld")->message;
  EXPECT_NE(r.of("ld")->message.find("64 threads hold no element"), std::string::npos) << r.of("ld")->message;
  const KernelFinding* st = r.of("st");
  ASSERT_EQ(st->status, prove::Status::kFail);
  EXPECT_EQ(st->severity, Severity::kWarning);
  EXPECT_EQ(st->witness["idle_threads"], 64);
  EXPECT_EQ(st->witness["thread"]["lane"], 16);
}

std::string mma(const std::string& name, int m, int n, const std::string& d_region, const std::string& extra = "") {
  return R"({"name": ")" + name + R"(", "kind": "tcgen05.mma", "warps": [4], "mma_kind": "f16", "m": )" +
         std::to_string(m) + R"(, "n": )" + std::to_string(n) + R"(, "k": 16, "d": {"lane": 0, "col": 0},
   "d_region": ")" + d_region + "\", " + kDesc + extra + "}";
}

TEST(KernelTmemDatapath, MmaLayoutDAgrees) {
  const CheckRun r = run(model(mma("mma", 128, 256, "acc[:, 0:256]")));
  EXPECT_EQ(r.of("mma")->status, prove::Status::kPass) << r.of("mma")->message;
}

TEST(KernelTmemDatapath, M64AccumulatorDeclaredIdentity) {
  const CheckRun r = run(model(mma("mma", 64, 128, "acc64")));
  const KernelFinding* f = r.of("mma");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->witness["element"], nlohmann::json({16, 0}));
  EXPECT_EQ(f->witness["accumulator"]["lane"], 32);
  EXPECT_EQ(f->witness["layout"]["lane"], 16);
  EXPECT_EQ(f->witness["datapath"], "F");
  EXPECT_NE(f->fix.find("tmem_datapath_layout(\"F\", 64, 128)"), std::string::npos) << f->fix;
}

// The classic: an M=64-per-CTA accumulator of Layout B (cta_group::2) laid out as Layout F.
TEST(KernelTmemDatapath, LayoutBAccumulatorDeclaredLayoutF) {
  const CheckRun r = run(model(mma("mma", 128, 64, "accF", R"(, "cta_group": 2)")));
  const KernelFinding* f = r.of("mma");
  ASSERT_EQ(f->status, prove::Status::kFail) << f->message;
  EXPECT_EQ(f->witness["element"], nlohmann::json({0, 32}));
  EXPECT_EQ(f->witness["accumulator"]["lane"], 64);
  EXPECT_EQ(f->witness["accumulator"]["col"], 0);
  EXPECT_EQ(f->witness["layout"]["col"], 32);
  EXPECT_EQ(f->witness["datapath"], "B");
  EXPECT_EQ(f->witness["layout_datapath"], "F");
  EXPECT_NE(f->fix.find("is Layout F (M=64 cta_group::1); this MMA writes Layout B"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("tmem_datapath_layout(\"B\", 64, 64)"), std::string::npos) << f->fix;
}

TEST(KernelTmemDatapath, MmaDAddressOffByAColumn) {
  std::string op = mma("mma", 128, 128, "acc[:, 0:128]");
  op.replace(op.find(R"("d": {"lane": 0, "col": 0})"), 26, R"("d": {"lane": 0, "col": 8})");
  const CheckRun r = run(model(op));
  const KernelFinding* f = r.of("mma");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->fix, "use D address lane 0 column 0");
  EXPECT_EQ(f->witness["d"]["col"], 8);
}

TEST(KernelTmemDatapath, DRegionOfTheWrongShape) {
  const CheckRun r = run(model(mma("mma", 256, 128, "acc[0:64, 0:128]", R"(, "cta_group": 2)")));
  const KernelFinding* f = r.of("mma");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_NE(f->message.find("accumulates 128 x 128 per CTA"), std::string::npos) << f->message;
}

std::string copy(const std::string& name, const std::string& dst, const std::string& src, const std::string& extra = "") {
  return R"({"name": ")" + name + R"(", "kind": "copy_async", "warps": [0, 1, 2, 3], "dst": ")" + dst + R"(", "src": ")" +
         src + R"(", "dispatch": "tcgen05")" + extra + "}";
}

TEST(KernelTmemDatapath, CopyOfTheUpperHalfSlabDerivesRow16) {
  const CheckRun r = run(model(copy("cp", "frag64", "acc_hi")));
  const KernelFinding* f = r.of("cp");
  EXPECT_EQ(f->status, prove::Status::kPass) << f->message;
  EXPECT_NE(f->message.find("Layout F sub_slab 1, 1 tcgen05.ld.sync.aligned.16x256b.x4.b32 at row 16"), std::string::npos)
      << f->message;
  // apache/tvm#20068 before the fix: the dispatcher emitted row 0.
  const CheckRun bad = run(model(copy("cp", "frag64", "acc_hi", R"(, "row_imm": 0)")));
  const KernelFinding* b = bad.of("cp");
  ASSERT_EQ(b->status, prove::Status::kFail);
  EXPECT_EQ(b->fix, "use row immediate 16");
  EXPECT_EQ(b->witness["derived_row"], 16);
  EXPECT_EQ(b->witness["layout"]["lane"], 16);
  EXPECT_EQ(b->witness["instruction"]["lane"], 0);
}

TEST(KernelTmemDatapath, CopyPlansAsTvmsDispatcher) {
  CheckRun r;
  r.m = parse_model(model(copy("c32", "frag", "acc[:, 32:64]") + ", " + copy("chi", "frag64[:, 8:16]", "acc_hi[:, 8:16]")),
                    "t.json");
  const KernelGraph g = build_graph(r.m);
  const KernelContext ctx = make_context(r.m, g, target(), {});
  const Op& c32 = *r.m.find_op("c32");
  const Tcgen05CopyPlan p = lower_tcgen05_copy(ctx, c32, std::get<CopyOp>(c32.data));
  ASSERT_EQ(p.issues.size(), 4u);
  EXPECT_EQ(p.datapath, "D");
  EXPECT_EQ(p.issues[2].warp, 2);
  EXPECT_EQ(p.issues[2].taddr.lane, 0);
  EXPECT_EQ(p.issues[2].taddr.col, 32);
  EXPECT_EQ(p.issues[2].instr.num, 32);
  // A column slice of a .16x256b atom: .x1 at column 8, registers from 8 * 16 / 32 = 4.
  const Op& chi = *r.m.find_op("chi");
  const Tcgen05CopyPlan q = lower_tcgen05_copy(ctx, chi, std::get<CopyOp>(chi.data));
  ASSERT_EQ(q.issues.size(), 4u);
  EXPECT_EQ(q.sub_slab, 1);
  EXPECT_EQ(q.issues[1].taddr.lane, 16);
  EXPECT_EQ(q.issues[1].taddr.col, 8);
  EXPECT_EQ(q.issues[1].instr.num, 1);
  EXPECT_EQ(q.issues[1].first_reg, 4);
}

// TVM's dispatcher pairs a 64-row region of a Layout D accumulator with each warp's first
// half-slab: rows 16..31 of the region are not the lanes warp 1 reads.
TEST(KernelTmemDatapath, CopyOfSixtyFourRowsOfLayoutD) {
  const CheckRun r = run(model(copy("cp", "frag64", "acc[0:64, 0:32]")));
  const KernelFinding* f = r.of("cp");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_EQ(f->witness["element"]["tmem"], nlohmann::json({16, 0}));
  EXPECT_EQ(f->witness["layout"]["lane"], 16);
  EXPECT_EQ(f->witness["instruction"]["lane"], 32);
}

TEST(KernelTmemDatapath, CopyTheDispatcherRejects) {
  const CheckRun r = run(model(copy("cp", "frag[0:64, :]", "acc_hi")));
  const KernelFinding* f = r.of("cp");
  ASSERT_EQ(f->status, prove::Status::kFail);
  EXPECT_NE(f->message.find("[kernel.lowering] TVM's tcgen05 copy dispatcher has no plan: the TMEM row extent"),
            std::string::npos)
      << f->message;
}

std::string gemm(const std::string& name, const std::string& d, const std::string& a, const std::string& b,
                 const std::string& extra = "") {
  return R"({"name": ")" + name + R"(", "kind": "gemm_async", "warps": [4], "d": ")" + d + R"(", "a": ")" + a +
         R"(", "b": ")" + b + "\"" + extra + "}";
}

TEST(KernelTmemDatapath, GemmAsyncPlanAndDPath) {
  const CheckRun r = run(model(gemm("g", "acc[:, 0:256]", "Asmem", "Bsmem") + ", " + gemm("g64", "acc64", "A64", "Bsmem[0:128, :]")));
  EXPECT_EQ(r.of("g")->status, prove::Status::kPass) << r.of("g")->message;
  EXPECT_NE(r.of("g")->message.find("M=128 N=256 (Layout D), 1 x 1 x 4 instructions"), std::string::npos)
      << r.of("g")->message;
  // M = 64 per CTA: the dispatcher issues M=64 (Layout F) into an identity layout.
  const KernelFinding* f = r.of("g64");
  ASSERT_EQ(f->status, prove::Status::kFail) << f->message;
  EXPECT_EQ(f->witness["datapath"], "F");
  EXPECT_EQ(f->witness["element"], nlohmann::json({16, 0}));
}

TEST(KernelTmemDatapath, GemmAsyncTilesAlongN) {
  CheckRun r;
  r.m = parse_model(model(gemm("g", "acc[:, 0:512]", "Asmem", "B512"), R"(, {"name": "B512", "scope": "shared.dyn",
   "shape": [512, 64], "dtype": "float16", "layout": "S[(512,64):(64,1)]", "placement": {"offset_bytes": 65536}})"),
                    "t.json");
  const KernelGraph kg = build_graph(r.m);
  const KernelContext ctx = make_context(r.m, kg, target(), {});
  ImageCache cache(ctx, 1 << 22);
  const Op& op = *r.m.find_op("g");
  const GemmAsyncPlan p = lower_gemm_async(ctx, cache, op, std::get<GemmAsyncOp>(op.data));
  EXPECT_EQ(p.m_desc, 128);
  EXPECT_EQ(p.n_mma, 256);
  EXPECT_EQ(p.mma_k, 16);
  ASSERT_EQ(p.tiles.size(), 8u);  // 1 x 2 x 4
  EXPECT_EQ(p.tiles[4].ni, 1);
  EXPECT_EQ(p.tiles[4].d.col, 256);
  EXPECT_EQ(p.datapath, hw::Datapath::D);
  const KernelFinding f = find_kernel_check("kernel.tmem-datapath")->run(ctx)[0];
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
}

}  // namespace
}  // namespace tirx::kernel
