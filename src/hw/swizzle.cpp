#include "tirx_verify/hw/swizzle.hpp"

#include <array>
#include <cctype>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {
[[noreturn]] void illegal(std::string msg, std::string note = {}) {
  throw InputError("swizzle.legal", std::move(msg), {}, std::nullopt, std::move(note));
}

struct ModeInfo {
  TmaSwizzle mode;
  std::string_view name;
  std::string_view cu_name;
  int b, m, s;
  int span;
};
constexpr std::array<ModeInfo, 6> kModes = {{
    {TmaSwizzle::kNone, "none", "CU_TENSOR_MAP_SWIZZLE_NONE", 0, 4, 3, 0},
    {TmaSwizzle::k32B, "32B", "CU_TENSOR_MAP_SWIZZLE_32B", 1, 4, 3, 32},
    {TmaSwizzle::k64B, "64B", "CU_TENSOR_MAP_SWIZZLE_64B", 2, 4, 3, 64},
    {TmaSwizzle::k128B, "128B", "CU_TENSOR_MAP_SWIZZLE_128B", 3, 4, 3, 128},
    {TmaSwizzle::k128BAtom32B, "128B_ATOM_32B", "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", 2, 5, 2, 128},
    {TmaSwizzle::k128BAtom64B, "128B_ATOM_64B", "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B", 1, 6, 1, 128},
}};
const ModeInfo& info(TmaSwizzle m) { return kModes[static_cast<int>(m)]; }

std::string upper(std::string_view t) {
  std::string u(t);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}
}  // namespace

Swizzle Swizzle::make(int b, int m, int s) {
  int as = s < 0 ? -s : s;
  if (b < 0 || m < 0 || as < b || m + b + as > 62)
    illegal(fmt::format("Swizzle<{},{},{}> is not well-formed", b, m, s), "need B >= 0, M >= 0, |S| >= B, M+B+|S| <= 62");
  return Swizzle{b, m, s};
}

std::uint64_t Swizzle::apply(std::uint64_t addr) const {
  if (b == 0) return addr;
  std::uint64_t field = (std::uint64_t{1} << b) - 1;
  if (s >= 0) {
    std::uint64_t src = (addr >> (m + s)) & field;  // bits [M+S, M+S+B)
    return addr ^ (src << m);                        // into [M, M+B)
  }
  std::uint64_t src = (addr >> m) & field;  // bits [M, M+B)
  return addr ^ (src << (m - s));           // into [M+|S|, M+|S|+B)
}

std::uint64_t Swizzle::period() const { return std::uint64_t{1} << (m + b + (s < 0 ? -s : s)); }

Swizzle Swizzle::for_elements(int log2_elem_bytes) const {
  if (log2_elem_bytes < 0 || m < log2_elem_bytes)
    illegal(fmt::format("Swizzle<{},{},{}> on byte addresses keeps only {} low bits; it has no form on {}-byte "
                        "element addresses",
                        b, m, s, m, 1 << (log2_elem_bytes < 0 ? 0 : log2_elem_bytes)));
  return Swizzle{b, m - log2_elem_bytes, s};
}

Swizzle ComposeSwizzle::as_cute() const {
  if (per_element < 0 || swizzle_len < 0 || atom_len < swizzle_len)
    illegal(fmt::format("ComposeLayout({}, {}, {}) is not well-formed", per_element, swizzle_len, atom_len),
            "need per_element >= 0, swizzle_len >= 0, atom_len >= swizzle_len");
  return Swizzle::make(swizzle_len, per_element, swizzle_inner ? atom_len : -atom_len);
}

TmaSwizzle parse_tma_swizzle(std::string_view text) {
  std::string u = upper(text);
  for (const auto& mi : kModes)
    if (u == upper(mi.name) || u == mi.cu_name) return mi.mode;
  if (u.find("FLIP") != std::string::npos)
    illegal(fmt::format("swizzle mode '{}' is not modelled: which alternate lines swap their 8-byte halves is "
                        "unverified (spec §10.5)",
                        text));
  illegal(fmt::format("unknown swizzle mode '{}'", text), "one of none, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_64B");
}

std::string_view to_string(TmaSwizzle mode) { return info(mode).name; }

Swizzle tma_swizzle_functor(TmaSwizzle mode) {
  const ModeInfo& mi = info(mode);
  return Swizzle{mi.b, mi.m, mi.s};
}

int tma_swizzle_span_bytes(TmaSwizzle mode) { return info(mode).span; }

std::uint64_t tma_swizzle_alignment_bytes(TmaSwizzle mode) {
  if (mode == TmaSwizzle::kNone) return 16;
  return tma_swizzle_functor(mode).period();
}

void check_swizzle_base_alignment(TmaSwizzle mode, std::uint64_t base) {
  std::uint64_t align = tma_swizzle_alignment_bytes(mode);
  if (base % align == 0) return;
  if (mode == TmaSwizzle::kNone)
    illegal(fmt::format("shared-memory base 0x{:X} is not 16-byte aligned", base));
  std::uint64_t lines = align / 128;
  illegal(fmt::format("shared-memory base 0x{:X} is not aligned to the {} swizzle period of {} bytes: the pattern "
                      "starts at phase {} (base offset (base >> 7) % {})",
                      base, to_string(mode), align, (base >> 7) % lines, lines),
          fmt::format("align the buffer to {} bytes", align));
}

}  // namespace tirx::hw
