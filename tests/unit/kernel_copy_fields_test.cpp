// Tile-level copy fields (src/kernel/ops/copy.cpp, docs/model-format.md): past_tensor (a TMA box
// past its tensor, src/kernel/lower_tma.cpp and checks/tma_layout.cpp), reduce (a TMA
// reduction), shape (tcgen05.cp, checks/tmem_datapath_cp.cpp) and 32-byte thread accesses.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "kernel_check_test_util.hpp"
#include "tirx_verify/kernel/op_access.hpp"
#include "tirx_verify/kernel/region.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {
namespace {

using test::load;
using test::the_finding;

const std::string kSw128 = R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (128, 64)))";

// A (rows x 64) float16 global G, a (128, 64) 128B-swizzled shared S, a (32, 64) plain shared P.
std::string cf_model(std::int64_t rows, const std::string& ops) {
  return fmt::format(R"({{"format": 2, "kernel": "k", "target": "sm_100a", "buffers": [
    {{"name": "G", "scope": "global", "shape": [{}, 64], "dtype": "float16", "layout": "S[({},64):(64,1)]"}},
    {{"name": "S", "scope": "shared.dyn", "shape": [128, 64], "dtype": "float16", "layout": "{}",
     "placement": {{"offset_bytes": 0, "align_bytes": 1024}}}},
    {{"name": "P", "scope": "shared.dyn", "shape": [32, 64], "dtype": "float16", "layout": "S[(32,64):(64,1)]",
     "placement": {{"offset_bytes": 16384, "align_bytes": 128}}}}],
    "ops": {}}})",
                     rows, rows, kSw128, ops);
}

TEST(Region, BindPastTheShapeOnlyWhenAllowedAndClip) {
  Region r = parse_region("G[0:128, 0:64]");
  EXPECT_THROW(bind_region(r, {1, 64}), InputError);
  r = parse_region("G[0:128, 0:64]");
  bind_region(r, {1, 64}, true);
  EXPECT_EQ(r.size(), 128 * 64);
  EXPECT_FALSE(region_inside(r, {1, 64}));
  const auto in = clip_region(r, {1, 64});
  ASSERT_TRUE(in.has_value());
  EXPECT_EQ(in->size(), 64);
  EXPECT_EQ(in->text, "G[0:1, 0:64]");
  Region past = parse_region("G[32:64, 0:64]");
  bind_region(past, {1, 64}, true);
  EXPECT_FALSE(clip_region(past, {1, 64}).has_value());
  Region huge = parse_region("G[0:4294967296, 0:4294967296]");
  EXPECT_THROW(bind_region(huge, {1, 64}, true), InputError);  // the count does not fit int64
}

// A 128-row box over a 1-row tensor: TVM's tma_auto keeps the tensor's dims in the map ([64, 1])
// and the box the copy's ([64, 128]); row 0 is compared, rows 1..127 are the TMA's zero fill.
TEST(CopyFields, PastTensorLoadComparesTheRowsInsideAndCountsTheFill) {
  auto l = load(cf_model(1, R"([{"name": "ld", "kind": "copy_async", "dst": "S", "src": "G[0:128, 0:64]",
      "dispatch": "tma", "past_tensor": true}])"));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "ld");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_EQ(f.witness["plan"]["dims"], (std::vector<std::int64_t>{64, 1}));
  EXPECT_EQ(f.witness["plan"]["box"], (std::vector<std::int64_t>{64, 128}));
  EXPECT_EQ(f.witness["plan"]["past_tensor_elements"], 127 * 64);
  EXPECT_NE(f.message.find("which the TMA fills with zeros"), std::string::npos) << f.message;
  // The footprint is the row inside the tensor.
  const auto acc = op_accesses(l->model.ops.at(0), l->model);
  ASSERT_EQ(acc.size(), 2u);
  EXPECT_FALSE(acc[0].write);
  EXPECT_EQ(acc[0].region->text, "G[0:1, 0:64]");
  EXPECT_EQ(acc[0].region->size(), 64);
}

TEST(CopyFields, AStoreWhollyPastTheTensorWritesNothing) {
  auto l = load(cf_model(1, R"([{"name": "st", "kind": "copy_async", "dst": "G[32:64, 0:64]", "src": "P",
      "dispatch": "tma", "past_tensor": true}])"));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "st");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_NE(f.message.find("the box lies wholly past tensor 'G' [1, 64]: the TMA writes no global memory"),
            std::string::npos)
      << f.message;
  const auto acc = op_accesses(l->model.ops.at(0), l->model);
  ASSERT_EQ(acc.size(), 1u);  // the shared read only
  EXPECT_EQ(acc[0].region->buffer, "P");
}

// A reduction adds to global memory the host owns: coverage does not call it a read of
// unwritten data, and the plan names the operation.
TEST(CopyFields, AReductionIsAReadModifyWriteOfGlobalMemory) {
  auto l = load(cf_model(64, R"([{"name": "red", "kind": "copy_async", "dst": "G[0:32, 0:64]", "src": "P",
      "dispatch": "tma", "reduce": "add"}])"));
  const auto acc = op_accesses(l->model.ops.at(0), l->model);
  ASSERT_EQ(acc.size(), 2u);
  EXPECT_TRUE(acc[1].write);
  EXPECT_TRUE(acc[1].rmw);
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "red");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_EQ(f.witness["plan"]["reduce"], "add");
  EXPECT_NE(f.message.find("(reduction .add into global)"), std::string::npos) << f.message;
  for (const auto& c : find_kernel_check("kernel.coverage")->run(l->ctx))
    EXPECT_NE(c.status, prove::Status::kFail) << c.message;
}

TEST(CopyFields, ReaderRefusals) {
  test::expect_model_error(cf_model(128, R"([{"name": "a", "kind": "copy_async", "dst": "S", "src": "G[0:128, 0:64]",
      "dispatch": "tma", "past_tensor": true}])"),
                  "is set but region 'G[0:128, 0:64]' lies inside tensor 'G' [128, 64]");
  test::expect_model_error(cf_model(1, R"([{"name": "a", "kind": "copy_async", "dst": "S", "src": "G[0:128, 0:64]",
      "dispatch": "tma"}])"),
                  "outside [0, 1) of buffer 'G'");
  test::expect_model_error(cf_model(1, R"([{"name": "a", "kind": "copy_async", "dst": "S[0:256, :]", "src": "G[0:256, 0:64]",
      "dispatch": "tma", "past_tensor": true}])"),
                  "runs past buffer 'S' [128, 64]: past_tensor lets only the global operand");
  test::expect_model_error(cf_model(128, R"([{"name": "a", "kind": "copy_async", "dst": "S", "src": "G",
      "dispatch": "tma", "reduce": "add"}])"),
                  "is a TMA reduction into global memory");
  test::expect_model_error(cf_model(128, R"([{"name": "a", "kind": "copy_async", "dst": "S", "src": "G",
      "dispatch": "tma", "shape": "128x128b"}])"),
                  "is the tcgen05.cp instruction shape; dispatch 'tma' has none");
  test::expect_model_error(cf_model(128, R"([{"name": "a", "kind": "copy", "dst": "P", "src": "G[0:32, :]", "warps": [0],
      "dispatch": "tma", "access_bytes": 16}])"),
                  "is the bytes per thread of a thread copy; dispatch 'tma' has none");
}

// A (64, 64) float16 TMEM tile replicated to lanes +64 (R[2:64@TLane]), from a 64-row shared
// tile: 64x128b.warpx2::02_13 writes row r to lanes r and r + 64, exactly the replicas.
std::string cf_cp_model(const std::string& shape_field) {
  return fmt::format(R"J({{"format": 2, "kernel": "k", "target": "sm_100a", "buffers": [
    {{"name": "Q", "scope": "shared.dyn", "shape": [64, 64], "dtype": "float16",
     "layout": "mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (64, 64))",
     "placement": {{"offset_bytes": 0, "align_bytes": 1024}}}},
    {{"name": "T", "scope": "tmem", "shape": [64, 64], "dtype": "float16",
     "layout": "S[(64,64):(1@TLane,1@TCol)] + R[2:64@TLane]", "alloc_cols": 64}}],
    "ops": [{{"name": "cp", "kind": "copy_async", "dst": "T", "src": "Q", "dispatch": "tcgen05.cp"{}}}]}})J",
                     shape_field);
}

TEST(CopyFields, Tcgen05CpShapeMustWriteTheLayoutsReplicas) {
  auto ok = load(cf_cp_model(R"(, "shape": "64x128b.warpx2::02_13")"));
  KernelFinding f = the_finding(*ok, "kernel.tmem-datapath", "cp");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_NE(f.message.find("every one of the 4096 elements of 'T'"), std::string::npos) << f.message;

  auto pairs = load(cf_cp_model(R"(, "shape": "64x128b.warpx2::01_23")"));
  f = the_finding(*pairs, "kernel.tmem-datapath", "cp");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["lanes"], (std::vector<int>{0, 64}));
  EXPECT_EQ(f.witness["expected_lanes"], (std::vector<int>{0, 32}));

  auto single = load(cf_cp_model(R"(, "shape": "128x128b")"));
  f = the_finding(*single, "kernel.tmem-datapath", "cp");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_NE(f.message.find("the layout has 2 image(s) per element, the instruction writes 1"), std::string::npos)
      << f.message;
  EXPECT_NE(f.fix.find("64x128b.warpx2::02_13"), std::string::npos) << f.fix;

  // No shape named: the planner chooses it (not checked here, as before).
  auto none = load(cf_cp_model(""));
  EXPECT_TRUE(test::findings(*none, "kernel.tmem-datapath", "cp").empty());
  test::expect_model_error(cf_cp_model(R"(, "shape": "64x128b")"), "needs a multicast");
}

TEST(CopyFields, ThirtyTwoBytesPerThreadOnlyAgainstGlobal) {
  const std::string regs = R"({"name": "R", "scope": "local", "shape": [32, 8], "dtype": "int32",
     "layout": "S[(32,8):(1@laneid,1)]"})";
  auto text = [&](const std::string& src) {
    return fmt::format(R"({{"format": 2, "kernel": "k", "target": "sm_100a", "buffers": [
      {{"name": "I", "scope": "global", "shape": [256], "dtype": "int32", "layout": "S[256:1]"}},
      {{"name": "J", "scope": "shared.dyn", "shape": [256], "dtype": "int32", "layout": "S[256:1]"}}, {}],
      "ops": [{{"name": "ld", "kind": "copy", "dst": "R", "src": "{}", "warps": [0], "dispatch": "thread",
               "access_bytes": 32}}]}})",
                       regs, src);
  };
  auto l = load(text("I"));
  EXPECT_EQ(std::get<CopyOp>(l->model.ops.at(0).data).access_bytes, 32);
  test::expect_model_error(text("J"), "32 bytes per thread is a 256-bit global access");
}

}  // namespace
}  // namespace tirx::kernel
