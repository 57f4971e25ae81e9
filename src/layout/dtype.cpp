// DType::parse — TVM dtype spellings to a bit width.
//
// Accepted: the generic families intN / uintN / floatN / bfloat16 (N in 8/16/32/64, float also
// 16/32/64), "bool" (8 bits, as TVM stores it), the named low-precision formats TVM knows
// (float8_e4m3fn, float8_e5m2, float8_e8m0fnu, float8_e4m3, float8_e4m3fnuz, float8_e5m2fnuz,
// float4_e2m1fn) and the short aliases fp16/bf16/fp32/fp8/fp4 used in kernel notes.
// Anything else is a `layout.well-formed` error (TVM would raise when parsing the string).
#include <array>
#include <charconv>
#include <string>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx {

namespace {

struct Named {
  std::string_view name;
  int bits;
};

constexpr std::array<Named, 13> kNamed = {{
    {"bfloat16", 16},
    {"bool", 8},
    {"float8_e4m3fn", 8},
    {"float8_e4m3", 8},
    {"float8_e4m3fnuz", 8},
    {"float8_e5m2", 8},
    {"float8_e5m2fnuz", 8},
    {"float8_e8m0fnu", 8},
    {"float4_e2m1fn", 4},
    {"fp16", 16},
    {"bf16", 16},
    {"fp32", 32},
    {"fp8", 8},
}};

// "int32" -> 32 when `name` is prefix followed by a width in `widths`; 0 otherwise.
int generic_bits(std::string_view name, std::string_view prefix, std::initializer_list<int> widths) {
  if (name.substr(0, prefix.size()) != prefix) return 0;
  std::string_view digits = name.substr(prefix.size());
  if (digits.empty()) return 0;
  int value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return 0;
  for (int w : widths)
    if (w == value) return value;
  return 0;
}

}  // namespace

DType DType::parse(std::string_view name) {
  for (const auto& n : kNamed)
    if (n.name == name) return DType{std::string(name), n.bits};
  if (name == "fp4") return DType{std::string(name), 4};
  int bits = generic_bits(name, "uint", {8, 16, 32, 64});
  if (bits == 0) bits = generic_bits(name, "int", {8, 16, 32, 64});
  if (bits == 0) bits = generic_bits(name, "float", {16, 32, 64});
  if (bits != 0) return DType{std::string(name), bits};
  throw InputError("layout.well-formed", fmt::format("unknown dtype '{}'", name), std::string(name),
                   std::size_t{0},
                   "use a TVM dtype such as float16, bfloat16, float32, uint8, float8_e4m3fn, "
                   "float4_e2m1fn");
}

}  // namespace tirx
