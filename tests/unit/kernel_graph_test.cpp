// The kernel graph of a model file (src/kernel/graph.cpp): op schema, buffer names, cycles.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {
namespace {

// A model with buffers A, A_smem, acc, C and the given "ops" JSON.
std::string model_with_ops(const std::string& ops) {
  return R"({"kernel": "k", "buffers": [
    {"name": "A", "scope": "global", "layout": "S[64:1]"},
    {"name": "A_smem", "scope": "shared", "layout": "S[64:1]"},
    {"name": "acc", "scope": "tmem", "layout": "S[(128,32):(1@TLane,1@TCol)]"},
    {"name": "C", "scope": "local", "layout": "S[(128,32):(1@tid_in_wg,1)]"}],
    "ops": )" + ops + "}";
}

// The InputError parse_model throws (fails the test if it does not throw).
InputError error_of(const std::string& ops) {
  try {
    parse_model(model_with_ops(ops), "m.json");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for ops " << ops;
  return InputError("none", "none");
}

TEST(KernelGraph, AcyclicPipelineLoads) {
  const KernelModel m = parse_model(model_with_ops(R"([
      {"name": "load_a", "kind": "tma.load", "inputs": ["A"], "outputs": ["A_smem"]},
      {"name": "mma", "kind": "tcgen05.mma", "inputs": ["A_smem", "acc"], "outputs": ["acc"]},
      {"name": "epi", "kind": "tcgen05.ld", "inputs": ["acc"], "outputs": ["C"]}])"),
                                    "m.json");
  ASSERT_EQ(m.op_list.size(), 3u);
  EXPECT_EQ(m.op_list[1].name, "mma");
  EXPECT_EQ(m.op_list[1].kind, "tcgen05.mma");
  EXPECT_EQ(m.op_list[1].inputs, (std::vector<std::string>{"A_smem", "acc"}));
  EXPECT_EQ(m.op_list[1].outputs, (std::vector<std::string>{"acc"}));
}

TEST(KernelGraph, EmptyAndMissingOpsAreFine) {
  EXPECT_TRUE(parse_model(model_with_ops("[]"), "m.json").op_list.empty());
  EXPECT_TRUE(parse_model(model_with_ops("null"), "m.json").op_list.empty());
}

TEST(KernelGraph, TwoOpCycleIsNamed) {
  const InputError e = error_of(R"([
      {"name": "a", "inputs": ["C"], "outputs": ["acc"]},
      {"name": "b", "inputs": ["acc"], "outputs": ["C"]}])");
  EXPECT_EQ(e.check_id(), "kernel.graph");
  EXPECT_EQ(e.message(), "m.json: $.ops[0]: the ops form a cycle: 'a' writes 'acc' read by 'b' writes 'C' read by 'a'");
}

TEST(KernelGraph, ThreeOpCycleBehindAnAcyclicPrefix) {
  const InputError e = error_of(R"([
      {"name": "load", "inputs": ["A"], "outputs": ["A_smem"]},
      {"name": "x", "inputs": ["A_smem", "C"], "outputs": ["acc"]},
      {"name": "y", "inputs": ["acc"], "outputs": ["A"]},
      {"name": "z", "inputs": ["A"], "outputs": ["C"]}])");
  EXPECT_EQ(e.check_id(), "kernel.graph");
  // load -> x -> y -> load/z ...; the first back edge found closes load -> x -> y -> load.
  EXPECT_NE(e.message().find("the ops form a cycle: 'load' writes 'A_smem' read by 'x' writes 'acc' read by 'y' "
                             "writes 'A' read by 'load'"),
            std::string::npos)
      << e.message();
}

TEST(KernelGraph, InPlaceUpdateIsNotACycle) {
  EXPECT_NO_THROW(parse_model(model_with_ops(R"([{"name": "mma", "inputs": ["acc"], "outputs": ["acc"]}])"), "m.json"));
}

TEST(KernelGraph, UnknownBufferAndDuplicateName) {
  InputError e = error_of(R"([{"name": "a", "inputs": ["B"], "outputs": ["acc"]}])");
  EXPECT_EQ(e.check_id(), "kernel.graph");
  EXPECT_EQ(e.message(), "m.json: $.ops[0]: op 'a' reads 'B', which is not a buffer of the model");
  e = error_of(R"([{"name": "a"}, {"name": "a"}])");
  EXPECT_EQ(e.check_id(), "kernel.graph");
  EXPECT_EQ(e.message(), "m.json: $.ops[1]: op name 'a' is used twice (first at $.ops[0])");
}

TEST(KernelGraph, SchemaErrors) {
  InputError e = error_of(R"([{"inputs": ["A"]}])");
  EXPECT_EQ(e.check_id(), "model.schema");
  EXPECT_EQ(e.message(), "m.json: $.ops[0].name is missing");
  e = error_of(R"([{"name": "a", "inputs": "A"}])");
  EXPECT_EQ(e.message(), "m.json: $.ops[0].inputs must be an array of buffer names");
  e = error_of(R"([{"name": "a", "outputs": [1]}])");
  EXPECT_EQ(e.message(), "m.json: $.ops[0].outputs[0] must be a string");
  e = error_of(R"({"name": "a"})");
  EXPECT_EQ(e.message(), "m.json: $.ops must be an array");
  e = error_of(R"([3])");
  EXPECT_EQ(e.message(), "m.json: $.ops[0] must be an object");
}

}  // namespace
}  // namespace tirx::kernel
