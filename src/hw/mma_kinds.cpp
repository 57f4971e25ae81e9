#include "tirx_verify/hw/mma_kinds.hpp"

#include <array>
#include <vector>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {

[[noreturn]] void kind_error(std::string msg) { throw InputError("tcgen05.shape", std::move(msg)); }

struct KindInfo {
  MmaKind kind;
  std::string_view name;
  int k;  // dense K (Table 39)
  bool block_scaled;
  std::vector<std::string_view> ab;  // Table 42 atype/btype, TVM spelling
  std::vector<std::string_view> d;   // Table 42 dtype
};

const std::vector<KindInfo>& kinds() {
  static const std::vector<std::string_view> f8f6f4 = {"float8_e4m3fn", "float8_e4m3", "float8_e5m2",
                                                       "float4_e2m1fn"};
  static const std::vector<KindInfo> k = {
      {MmaKind::kF16, "f16", 16, false, {"float16", "bfloat16"}, {"float16", "float32"}},
      {MmaKind::kTf32, "tf32", 8, false, {"float32"}, {"float32"}},
      {MmaKind::kF8F6F4, "f8f6f4", 32, false, f8f6f4, {"float32"}},
      {MmaKind::kI8, "i8", 32, false, {"int8", "uint8"}, {"int32"}},
      {MmaKind::kMxF8F6F4, "mxf8f6f4", 32, true, f8f6f4, {"float32"}},
      {MmaKind::kMxF4, "mxf4", 64, true, {"float4_e2m1fn"}, {"float32"}},
      {MmaKind::kMxF4Nvf4, "mxf4nvf4", 64, true, {"float4_e2m1fn"}, {"float32"}},
  };
  return k;
}

const KindInfo& info(MmaKind m) {
  for (const auto& k : kinds())
    if (k.kind == m) return k;
  kind_error("unknown MMA kind");
}

}  // namespace

MmaKind parse_mma_kind(std::string_view text) {
  if (text.substr(0, 7) == ".kind::") text.remove_prefix(7);
  for (const auto& k : kinds())
    if (k.name == text) return k.kind;
  kind_error(fmt::format("unknown tcgen05.mma kind '{}' (f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4)", text));
}

std::string_view to_string(MmaKind k) { return info(k).name; }
bool is_block_scaled(MmaKind k) { return info(k).block_scaled; }

int tcgen05_mma_k(MmaKind k, bool sparse) { return info(k).k * (sparse ? 2 : 1); }

bool tcgen05_kind_accepts(MmaKind k, MmaOperand op, std::string_view dtype) {
  const KindInfo& i = info(k);
  for (auto d : op == MmaOperand::kD ? i.d : i.ab)
    if (d == dtype) return true;
  return false;
}

std::string tcgen05_kind_dtypes(MmaKind k, MmaOperand op) {
  const KindInfo& i = info(k);
  std::string s;
  for (auto d : op == MmaOperand::kD ? i.d : i.ab) s += fmt::format("{}{}", s.empty() ? "" : ", ", d);
  return s;
}

int tcgen05_smem_element_bits(MmaKind k, std::string_view dtype) {
  switch (k) {
    case MmaKind::kF16: return 16;
    case MmaKind::kTf32: return 32;
    case MmaKind::kI8:
    case MmaKind::kF8F6F4:
    case MmaKind::kMxF8F6F4: return 8;
    case MmaKind::kMxF4:
    case MmaKind::kMxF4Nvf4: return dtype == "float4_e2m1fn" ? 4 : 8;
  }
  return 8;
}

MmaOperandRows tcgen05_operand_rows(int m, int n, int cta_group) {
  if (cta_group == 1) return {m, n};
  if (cta_group != 2) kind_error(fmt::format(".cta_group::{} does not exist (1 or 2)", cta_group));
  if (m % 2 != 0 || n % 2 != 0)
    kind_error(fmt::format("a {} x {} MMA cannot be split over the CTA pair of .cta_group::2", m, n));
  return {m / 2, n / 2};
}

int wgmma_k(std::string_view dtype) {
  if (dtype == "float16" || dtype == "bfloat16") return 16;
  if (dtype == "float32") return 8;  // tf32
  if (dtype == "float8_e4m3fn" || dtype == "float8_e4m3" || dtype == "float8_e5m2" || dtype == "int8" ||
      dtype == "uint8")
    return 32;
  return 0;
}

bool wgmma_mn_major_allowed(std::string_view dtype) { return dtype == "float16" || dtype == "bfloat16"; }

}  // namespace tirx::hw
