// The kernel graph (src/kernel/graph.cpp): vertices and edges of a format-2 model, producers,
// views, and cycles among format-1 ops.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {
namespace {

// A format-1 model with buffers A, A_smem, acc, C and the given "ops" JSON.
std::string v1_model(const std::string& ops) {
  return R"({"kernel": "k", "buffers": [
    {"name": "A", "scope": "global", "layout": "S[64:1]"},
    {"name": "A_smem", "scope": "shared", "layout": "S[64:1]"},
    {"name": "acc", "scope": "tmem", "layout": "S[(128,32):(1@TLane,1@TCol)]"},
    {"name": "C", "scope": "local", "layout": "S[(128,32):(1@tid_in_wg,1)]"}],
    "ops": )" + ops + "}";
}

InputError error_of(const std::string& text) {
  try {
    parse_model(text, "m.json");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << text;
  return InputError("none", "none");
}

// A format-2 pipeline: TMA -> Asmem -> MMA -> acc (a view P of acc is written by a store)
// -> tcgen05.ld -> frag.
const char* kPipeline = R"({"format": 2, "kernel": "k", "buffers": [
  {"name": "A", "scope": "global", "shape": [128, 64], "dtype": "float16", "layout": "S[(128,64):(64,1)]"},
  {"name": "Asmem", "scope": "shared.dyn", "shape": [128, 64], "dtype": "float16", "layout": "S[(128,64):(64,1)]"},
  {"name": "acc", "scope": "tmem", "shape": [128, 64], "dtype": "float32", "layout": "S[(128,64):(1@TLane,1@TCol)]"},
  {"name": "P", "scope": "tmem", "shape": [128, 128], "dtype": "float16", "layout": "S[(128,128):(1@TLane,1@TCol)]",
   "view_of": {"buffer": "acc"}},
  {"name": "frag", "scope": "local", "shape": [128, 64], "dtype": "float32", "layout": "S[(128,64):(1@tid_in_wg,1)]"}],
 "ops": [
  {"name": "load", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [64, 128], "strides_bytes": [128],
   "box": [64, 128], "swizzle": "none"}, "coords": [0, 0], "global": "A", "smem": "Asmem"},
  {"name": "mma", "kind": "gemm_async", "d": "acc", "a": "Asmem", "b": "Asmem", "accumulate": false},
  {"name": "ld", "kind": "tcgen05.ld", "shape": "32x32b", "num": 64, "warps": [0, 1, 2, 3],
   "taddr": {"lane": 0, "col": 0}, "tmem": "acc", "regs": "frag"},
  {"name": "st", "kind": "tcgen05.st", "shape": "32x32b", "num": 64, "warps": [0, 1, 2, 3],
   "taddr": {"lane": 0, "col": 0}, "tmem": "P[:, 0:64]", "regs": "frag"}]})";

TEST(KernelGraph, ReadsAndWritesComeFromTheOpKinds) {
  const KernelModel m = parse_model(kPipeline, "m.json");
  ASSERT_EQ(m.ops.size(), 4u);
  EXPECT_EQ(m.ops[0].reads, (std::vector<std::string>{"A"}));
  EXPECT_EQ(m.ops[0].writes, (std::vector<std::string>{"Asmem"}));
  EXPECT_EQ(m.ops[1].reads, (std::vector<std::string>{"Asmem", "Asmem"}));  // accumulate: false
  EXPECT_EQ(m.ops[1].writes, (std::vector<std::string>{"acc"}));
  EXPECT_EQ(m.ops[3].writes, (std::vector<std::string>{"P"}));
}

TEST(KernelGraph, WritersReadersProducersAndViews) {
  const KernelModel m = parse_model(kPipeline, "m.json");
  const KernelGraph g = build_graph(m);
  EXPECT_EQ(boost::num_vertices(g.g), 4u + 5u);
  EXPECT_EQ(g.writers(1), (std::vector<std::size_t>{0}));  // Asmem <- load
  EXPECT_EQ(g.readers(1), (std::vector<std::size_t>{1}));  // Asmem -> mma
  EXPECT_EQ(g.writers(2), (std::vector<std::size_t>{1}));  // acc <- mma
  EXPECT_EQ(g.storage_root(3), 2u);                        // P is a view of acc
  EXPECT_EQ(g.views_of(2), (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(g.producer(2, 2), 1u);  // ld reads acc written by mma
  EXPECT_EQ(g.producer(1, 1), 0u);  // mma reads Asmem written by load
  EXPECT_EQ(g.producer(0, 0), SIZE_MAX);  // nothing writes A
}

TEST(KernelGraph, FormatOneOpsKeepTheirStructure) {
  const KernelModel m = parse_model(v1_model(R"([
      {"name": "load_a", "kind": "tma.load", "inputs": ["A"], "outputs": ["A_smem"]},
      {"name": "mma", "kind": "tcgen05.mma", "inputs": ["A_smem", "acc"], "outputs": ["acc"]}])"),
                                    "m.json");
  ASSERT_EQ(m.ops.size(), 2u);
  EXPECT_EQ(m.ops[1].kind, "tcgen05.mma");
  EXPECT_EQ(m.ops[1].reads, (std::vector<std::string>{"A_smem", "acc"}));
  EXPECT_TRUE(std::holds_alternative<StructuralOp>(m.ops[1].data));
  EXPECT_TRUE(parse_model(v1_model("[]"), "m.json").ops.empty());
}

TEST(KernelGraph, FormatOneCycleIsWalked) {
  const InputError e = error_of(v1_model(R"([
      {"name": "a", "inputs": ["C"], "outputs": ["acc"]},
      {"name": "b", "inputs": ["acc"], "outputs": ["C"]}])"));
  EXPECT_EQ(e.check_id(), "kernel.graph");
  EXPECT_EQ(e.message(),
            "m.json:7:7: $.ops[0]: the ops form a cycle: 'a' writes 'acc' read by 'b' writes 'C' read by 'a'");
}

TEST(KernelGraph, FormatOneThreeOpCycleBehindAnAcyclicPrefix) {
  const InputError e = error_of(v1_model(R"([
      {"name": "load", "inputs": ["A"], "outputs": ["A_smem"]},
      {"name": "x", "inputs": ["A_smem", "C"], "outputs": ["acc"]},
      {"name": "y", "inputs": ["acc"], "outputs": ["A"]},
      {"name": "z", "inputs": ["A"], "outputs": ["C"]}])"));
  EXPECT_EQ(e.check_id(), "kernel.graph");
  EXPECT_NE(e.message().find("the ops form a cycle: 'load' writes 'A_smem' read by 'x' writes 'acc' read by 'y' "
                             "writes 'A' read by 'load'"),
            std::string::npos)
      << e.message();
}

TEST(KernelGraph, InPlaceUpdateIsNotACycle) {
  EXPECT_NO_THROW(parse_model(v1_model(R"([{"name": "mma", "inputs": ["acc"], "outputs": ["acc"]}])"), "m.json"));
}

}  // namespace
}  // namespace tirx::kernel
