// The model loader (src/kernel/model.cpp, model_reader.cpp, ops/): strict format 2, format 1
// compatibility, positions, and hostile input. Every malformed file is an InputError with a
// check id and the JSON path with its line and column. Cases found by fuzzing
// (tests/fuzz/fuzz_model.cpp) are kept here and in tests/fuzz/regressions/model.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {
namespace {

InputError error_of(const std::string& text) {
  try {
    parse_model(text, "m.json");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << text;
  return InputError("none", "none");
}

// A small valid format-2 model; `buffers_extra` and `ops` are spliced in.
std::string v2(const std::string& buffers_extra, const std::string& ops = "[]", const std::string& top = "") {
  return std::string(R"({"format": 2, "kernel": "k",)") + top + R"( "buffers": [
{"name": "A", "scope": "global", "shape": [128, 64], "dtype": "float16", "layout": "S[(128,64):(64,1)]"},
{"name": "S", "scope": "shared.dyn", "shape": [2, 128, 64], "dtype": "float16",
 "layout": "S[(2,128,64):(8192,64,1)]", "placement": {"offset_bytes": 1024, "align_bytes": 1024}},
{"name": "T", "scope": "tmem", "shape": [128, 64], "dtype": "float32", "layout": "S[(128,64):(1@TLane,1@TCol)]",
 "alloc_cols": 64}, 
{"name": "R", "scope": "local", "shape": [128, 64], "dtype": "float32", "layout": "S[(128,64):(1@tid_in_wg,1)]"})" +
         buffers_extra + R"(], "ops": )" + ops + "}";
}

// The error is at `line` (1-based) of the file, its message after "m.json:LINE:COL: " is `what`,
// and the caret stands on `token`.
void expect_at(const InputError& e, int line, const std::string& what, const std::string& token) {
  EXPECT_EQ(e.check_id(), "model.schema");
  const std::string prefix = "m.json:" + std::to_string(line) + ":";
  ASSERT_EQ(e.message().rfind(prefix, 0), 0u) << e.message();
  const std::size_t colon = e.message().find(": ");
  EXPECT_EQ(e.message().substr(colon + 2), what);
  ASSERT_TRUE(e.pos().has_value());
  EXPECT_EQ(e.text().substr(*e.pos(), token.size()), token) << e.text();
  // The column in the message is the caret's column in that line (1-based).
  const std::string col = e.message().substr(prefix.size(), colon - prefix.size());
  EXPECT_EQ(std::stoul(col), *e.pos() + 1);
}

const char* kTma = R"({"name": "load", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [64, 128],
  "strides_bytes": [128], "box": [64, 128], "swizzle": "none"}, "coords": [0, 0], "global": "A", "smem": "S[0, :, :]"})";

TEST(KernelModel, ValidFormatTwoModelLoads) {
  const KernelModel m = parse_model(v2("", std::string("[") + kTma + "]"), "m.json");
  EXPECT_EQ(m.format, 2);
  ASSERT_EQ(m.buffers.size(), 4u);
  ASSERT_TRUE(m.buffers[1].placement.has_value());
  EXPECT_EQ(*m.buffers[1].placement->offset_bytes, 1024);
  EXPECT_EQ(m.buffers[1].position.line, 3);
  ASSERT_EQ(m.ops.size(), 1u);
  const auto* t = std::get_if<TmaOp>(&m.ops[0].data);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->tensor_map.elem_bytes, 2);
  EXPECT_EQ(t->smem.size(), 128 * 64);
  EXPECT_EQ(t->smem.coord(65), (std::vector<std::int64_t>{0, 1, 1}));
  EXPECT_EQ(m.ops[0].position.line, 7);
}

TEST(KernelModel, UnknownKeysAreRefusedWithTheirPositionAndAGuess) {
  // The report that started issue 10: an "access" key on a buffer was ignored and the model passed.
  InputError e = error_of(v2(R"(, {"name": "X", "scope": "shared", "shape": [8], "dtype": "float16",
    "layout": "S[8:1]", "access": "S[8:1@laneid]"})"));
  expect_at(e, 8, "$.buffers[4].access is not a known key here", "\"access\"");
  e = error_of(v2(R"(, {"name": "X", "scope": "shared", "shape": [8], "dtype": "float16", "layout": "S[8:1]",
    "placment": {"offset_bytes": 0}})"));
  expect_at(e, 8, "$.buffers[4].placment is not a known key here", "\"placment\"");
  EXPECT_NE(e.note().find("did you mean 'placement'?"), std::string::npos) << e.note();
  e = error_of(v2("", R"([{"name": "l", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [64, 128],
    "strides_bytes": [128], "box": [64, 128], "swizle": "none"}, "coords": [0, 0], "global": "A", "smem": "S[0]"}])"));
  expect_at(e, 7, "$.ops[0].tensor_map.swizzle is missing", "{\"dtype\"");
  e = error_of(v2("", "[]", R"( "kernal": "x",)"));
  expect_at(e, 1, "$.kernal is not a known key here", "\"kernal\"");
}

TEST(KernelModel, WrongTypesAndRanges) {
  InputError e = error_of(v2(R"(, {"name": "X", "scope": "tmem", "shape": [8], "dtype": "float32",
    "layout": "S[8:1@TCol]", "alloc_cols": "32"})"));
  expect_at(e, 8, "$.buffers[4].alloc_cols must be an integer, not a string", "\"32\"");
  e = error_of(v2("", R"([{"name": "l", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [64, 128],
    "strides_bytes": [128], "box": [64, 512], "swizzle": "none"}, "coords": [0, 0], "global": "A", "smem": "S[0]"}])"));
  expect_at(e, 8, "$.ops[0].tensor_map.box[1] is 512, outside [1, 256]", "512");
  e = error_of(v2("", R"([{"name": "l", "kind": "tcgen05.ld", "shape": "32x32b", "num": 3, "warps": [0],
    "taddr": {"lane": 0, "col": 0}, "tmem": "T[0:32, 0:3]", "regs": "R[0:32, 0:3]"}])"));
  EXPECT_EQ(e.check_id(), "model.schema");
  EXPECT_NE(e.message().find("$.ops[0].num"), std::string::npos) << e.message();
  e = error_of(v2(R"(, {"name": "X", "scope": "shared", "shape": [8], "dtype": "float99", "layout": "S[8:1]"})"));
  expect_at(e, 7, "$.buffers[4].dtype 'float99' is not a TVM dtype", "\"float99\"");
  e = error_of(v2(R"(, {"name": "X", "scope": "shared", "shape": [8], "dtype": "fp16", "layout": "S[8:1]"})"));
  expect_at(e, 7, "$.buffers[4].dtype 'fp16' is not a TVM dtype", "\"fp16\"");
  e = error_of(v2(R"(, {"name": "X", "scope": "smem", "shape": [8], "dtype": "float16", "layout": "S[8:1]"})"));
  expect_at(e, 7, "$.buffers[4].scope 'smem' is not one of shared.dyn, shared, tmem, local, global", "\"smem\"");
}

TEST(KernelModel, DuplicatesAreErrors) {
  InputError e = error_of(v2(R"(, {"name": "A", "scope": "shared", "shape": [8], "dtype": "float16", "layout": "S[8:1]"})"));
  expect_at(e, 7, "$.buffers[4].name buffer name 'A' is used twice (first at $.buffers[0])", "\"A\"");
  e = error_of(v2("", std::string("[") + kTma + ", " + kTma + "]"));
  EXPECT_NE(e.message().find("$.ops[1].name op name 'load' is used twice (first at $.ops[0])"), std::string::npos)
      << e.message();
  // nlohmann keeps the last of two equal keys; the loader refuses them.
  e = error_of(R"({"format": 2, "kernel": "a", "kernel": "b", "buffers": []})");
  expect_at(e, 1, "$.kernel is a duplicate key: the object already has it", "\"kernel\": \"b\"");
}

TEST(KernelModel, RegionsNameRealBuffersInTheRightScope) {
  InputError e = error_of(v2("", R"([{"name": "l", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [64, 128],
    "strides_bytes": [128], "box": [64, 128], "swizzle": "none"}, "coords": [0, 0], "global": "A", "smem": "Sx[0]"}])"));
  expect_at(e, 8, "$.ops[0].smem names buffer 'Sx', which is not a buffer of the model", "\"Sx[0]\"");
  EXPECT_NE(e.note().find("did you mean 'S'?"), std::string::npos) << e.note();
  e = error_of(v2("", R"([{"name": "l", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [64, 128],
    "strides_bytes": [128], "box": [64, 128], "swizzle": "none"}, "coords": [0, 0], "global": "A", "smem": "T"}])"));
  EXPECT_NE(e.message().find("names buffer 'T' in scope tmem, but this operand must be shared or shared.dyn"),
            std::string::npos)
      << e.message();
  e = error_of(v2("", R"([{"name": "l", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [64, 128],
    "strides_bytes": [128], "box": [64, 128], "swizzle": "none"}, "coords": [0, 0], "global": "A", "smem": "S[2, :, :]"}])"));
  EXPECT_NE(e.message().find("region 'S[2, :, :]': dimension 0 selects [2, 3) outside [0, 2) of buffer 'S'"),
            std::string::npos)
      << e.message();
  e = error_of(v2("", R"([{"name": "l", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [64, 128],
    "strides_bytes": [128], "box": [64, 128], "swizzle": "none"}, "coords": [0, 0], "global": "A", "smem": "S[0, :]"}])"));
  EXPECT_NE(e.message().find("region 'S[0, :]' has 2 indices but buffer 'S' has 3 dimensions"), std::string::npos)
      << e.message();
  e = error_of(v2("", R"([{"name": "l", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [64, 128],
    "strides_bytes": [128], "box": [64, 128], "swizzle": "none"}, "coords": [0, 0], "global": "A", "smem": "S[0, 0:64, :]"}])"));
  EXPECT_NE(e.message().find("has 4096 elements but global region 'A' has 8192"), std::string::npos) << e.message();
}

TEST(KernelModel, PlacementsViewsAndLiveRanges) {
  InputError e = error_of(v2(R"(, {"name": "X", "scope": "shared", "shape": [8], "dtype": "float16", "layout": "S[8:1]",
    "placement": {"offset_bytes": 384, "align_bytes": 1024}})"));
  expect_at(e, 8, "$.buffers[4].placement.offset_bytes 384 is not a multiple of align_bytes 1024", "384");
  e = error_of(v2(R"(, {"name": "X", "scope": "local", "shape": [8], "dtype": "float16", "layout": "S[8:1]",
    "placement": {"col": 0}})"));
  EXPECT_NE(e.message().find("a local buffer has no placement"), std::string::npos) << e.message();
  e = error_of(v2(R"(, {"name": "X", "scope": "tmem", "shape": [8], "dtype": "float16", "layout": "S[8:1@TCol]",
    "view_of": {"buffer": "S"}})"));
  EXPECT_NE(e.message().find("a tmem view of the shared.dyn buffer 'S'"), std::string::npos) << e.message();
  e = error_of(v2(R"(, {"name": "X", "scope": "tmem", "shape": [8], "dtype": "float16", "layout": "S[8:1@TCol]",
    "view_of": {"buffer": "Y"}}, {"name": "Y", "scope": "tmem", "shape": [8], "dtype": "float16",
    "layout": "S[8:1@TCol]", "view_of": {"buffer": "X"}})"));
  EXPECT_NE(e.message().find("views form a cycle"), std::string::npos) << e.message();
  e = error_of(v2(R"(, {"name": "X", "scope": "shared", "shape": [8], "dtype": "float16", "layout": "S[8:1]",
    "live": ["load", "nope"]})",
                  std::string("[") + kTma + "]"));
  EXPECT_NE(e.message().find("$.buffers[4].live[1] names op 'nope', which is not an op of the model"),
            std::string::npos)
      << e.message();
  const KernelModel m = parse_model(v2(R"(, {"name": "P", "scope": "tmem", "shape": [128, 128], "dtype": "float16",
    "layout": "S[(128,128):(1@TLane,1@TCol)]", "view_of": {"buffer": "T"}, "broadcast": false})"),
                                    "m.json");
  EXPECT_EQ(m.buffers[4].view_of.value(), "T");
}

TEST(KernelModel, OpKindsAreAFixedSet) {
  InputError e = error_of(v2("", R"([{"name": "x", "kind": "tma_load"}])"));
  EXPECT_NE(e.message().find("$.ops[0].kind 'tma_load' is not one of copy, copy_async"), std::string::npos)
      << e.message();
  EXPECT_NE(e.note().find("did you mean 'tma.load'?"), std::string::npos) << e.note();
  // Block scaling belongs to the block-scaled kinds only.
  e = error_of(v2("", R"([{"name": "m", "kind": "tcgen05.mma", "mma_kind": "mxf4nvf4", "m": 128, "n": 64, "k": 64,
    "d": {"lane": 0, "col": 0}, "d_region": "T",
    "a_desc": {"start": "S[0, 0, 0]", "lbo_bytes": 16, "sbo_bytes": 1024, "swizzle": "128B"},
    "b_desc": {"start": "S[1, 0, 0]", "lbo_bytes": 16, "sbo_bytes": 1024, "swizzle": "128B"}}])"));
  EXPECT_NE(e.message().find("kind::mxf4nvf4 is block-scaled: give sfa, sfb and scale_vec"), std::string::npos)
      << e.message();
  // tcgen05.ld is warp-collective.
  e = error_of(v2("", R"([{"name": "l", "kind": "tcgen05.ld", "shape": "32x32b", "num": 64,
    "taddr": {"lane": 0, "col": 0}, "tmem": "T", "regs": "R"}])"));
  EXPECT_NE(e.message().find("$.ops[0].warps is missing"), std::string::npos) << e.message();
}

TEST(KernelModel, FormatTwoNeedsShapeAndDtypeFormatOneDoesNot) {
  InputError e = error_of(R"({"format": 2, "kernel": "k", "buffers": [{"name": "b", "scope": "shared", "layout": "S[8:1]"}]})");
  expect_at(e, 1, "$.buffers[0].shape is missing", "{\"name\": \"b\"");
  EXPECT_NO_THROW(parse_model(R"({"kernel": "k", "buffers": [{"name": "b", "scope": "shared", "layout": "S[8:1]"}]})", "m.json"));
  // Format-2 keys are unknown in format 1.
  e = error_of(R"({"kernel": "k", "buffers": [{"name": "b", "scope": "shared", "layout": "S[8:1]", "broadcast": true}]})");
  expect_at(e, 1, "$.buffers[0].broadcast is not a known key here", "\"broadcast\"");
}

TEST(KernelModel, NumberBeyondDoubleIsASyntaxError) {
  // Fuzzing found this: nlohmann::json throws out_of_range (406), not parse_error, and the loader
  // let it escape (std::terminate in tirx-verify run).
  const InputError e = error_of(R"({"kernel": 44444e44444444, "buffers": []})");
  EXPECT_EQ(e.check_id(), "model.syntax");
  EXPECT_NE(e.message().find("number overflow"), std::string::npos) << e.message();
}

TEST(KernelModel, IntegersBeyondInt64AreSchemaErrors) {
  // 2^63 .. 2^64-1 parse as unsigned; get<int64_t> would silently wrap them negative.
  InputError e = error_of(
      R"({"kernel": "k", "buffers": [{"name": "b", "scope": "tmem", "layout": "S[8:1@TCol]", "alloc_cols": 18446744073709551615}]})");
  EXPECT_EQ(e.check_id(), "model.schema");
  EXPECT_EQ(e.message(), "m.json:1:99: $.buffers[0].alloc_cols must be an integer that fits int64");
  e = error_of(R"({"kernel": "k", "buffers": [{"name": "b", "scope": "shared", "layout": "S[8:1]", "shape": [9223372036854775808]}]})");
  EXPECT_EQ(e.message(), "m.json:1:92: $.buffers[0].shape[0] must be an integer that fits int64");
  e = error_of(R"({"kernel": "k", "params": {"N": {"value": 9223372036854775808}}, "buffers": []})");
  EXPECT_EQ(e.message(), "m.json:1:43: $.params.N.value must be an integer that fits int64");
  // INT64_MAX itself is an integer.
  EXPECT_EQ(parse_model(R"({"kernel": "k", "params": {"N": 9223372036854775807}, "buffers": []})", "m.json").params.at("N").value,
            INT64_MAX);
}

TEST(KernelModel, SyntaxErrorPointsAtTheByte) {
  const InputError e = error_of("{\"kernel\": \"k\",\n \"buffers\": [}");
  EXPECT_EQ(e.check_id(), "model.syntax");
  ASSERT_TRUE(e.pos().has_value());
  EXPECT_EQ(*e.pos(), 29u);  // the '}' that closes nothing
}

}  // namespace
}  // namespace tirx::kernel
