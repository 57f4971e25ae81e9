// The model loader on hostile input (src/kernel/model.cpp): every malformed file is an
// InputError with a check id, never another exception. Cases found by fuzzing
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
  EXPECT_EQ(e.message(), "m.json: $.buffers[0].alloc_cols must be an integer");
  e = error_of(R"({"kernel": "k", "buffers": [{"name": "b", "scope": "shared", "layout": "S[8:1]", "shape": [9223372036854775808]}]})");
  EXPECT_EQ(e.message(), "m.json: $.buffers[0].shape[0] must be an integer");
  e = error_of(R"({"kernel": "k", "params": {"N": {"value": 9223372036854775808}}, "buffers": []})");
  EXPECT_EQ(e.message(), "m.json: $.params.N.value must be an integer");
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
