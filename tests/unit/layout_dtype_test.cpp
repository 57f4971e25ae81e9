// DType::parse: TVM dtype spellings the factories accept.
#include <gtest/gtest.h>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx {
namespace {

TEST(DType, KnownNames) {
  const std::pair<const char*, int> cases[] = {
      {"float16", 16}, {"bfloat16", 16}, {"float32", 32},      {"float64", 64},       {"int8", 8},
      {"uint8", 8},    {"int32", 32},    {"uint16", 16},       {"int64", 64},         {"float8_e4m3fn", 8},
      {"float8_e5m2", 8}, {"float8_e8m0fnu", 8}, {"float4_e2m1fn", 4}, {"bool", 8}, {"fp16", 16},
  };
  for (auto [name, bits] : cases) {
    const DType d = DType::parse(name);
    EXPECT_EQ(d.bits, bits) << name;
    EXPECT_EQ(d.name, name);
  }
}

TEST(DType, UnknownNamesAreErrors) {
  for (const char* bad : {"float", "float12", "int4x", "half", "", "uint7", "float8"}) {
    try {
      (void)DType::parse(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.check_id(), "layout.well-formed");
    }
  }
}

}  // namespace
}  // namespace tirx
