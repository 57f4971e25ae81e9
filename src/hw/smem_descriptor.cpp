#include "tirx_verify/hw/smem_descriptor.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {
[[noreturn]] void desc_error(std::string msg) { throw InputError("smem.descriptor", std::move(msg)); }

std::uint64_t field(std::uint32_t bytes, const char* name) {
  if (bytes % 16 != 0 || bytes >= (1u << 18))
    desc_error(fmt::format("descriptor {} {} bytes must be 16-byte aligned and below 2^18", name, bytes));
  return bytes >> 4;
}

// Swizzle codes per variant (header): Blackwell 3 bits at 61, Hopper 2 bits at 62.
int swizzle_code(TmaSwizzle s, DescriptorVariant v) {
  const bool hopper = v == DescriptorVariant::kHopper;
  switch (s) {
    case TmaSwizzle::kNone: return 0;
    case TmaSwizzle::k128B: return hopper ? 1 : 2;
    case TmaSwizzle::k64B: return hopper ? 2 : 4;
    case TmaSwizzle::k32B: return hopper ? 3 : 6;
    case TmaSwizzle::k128BAtom32B:
      if (!hopper) return 1;
      [[fallthrough]];
    default:
      desc_error(fmt::format("swizzle mode {} has no {} descriptor code", to_string(s), hopper ? "wgmma" : "tcgen05"));
  }
}

TmaSwizzle swizzle_of(int code, DescriptorVariant v, std::uint64_t bits) {
  if (v == DescriptorVariant::kHopper) {
    const TmaSwizzle modes[4] = {TmaSwizzle::kNone, TmaSwizzle::k128B, TmaSwizzle::k64B, TmaSwizzle::k32B};
    return modes[code & 3];
  }
  switch (code) {
    case 0: return TmaSwizzle::kNone;
    case 1: return TmaSwizzle::k128BAtom32B;
    case 2: return TmaSwizzle::k128B;
    case 4: return TmaSwizzle::k64B;
    case 6: return TmaSwizzle::k32B;
    default: desc_error(fmt::format("descriptor 0x{:016X}: swizzle code {} is invalid", bits, code));
  }
}
}  // namespace

std::uint64_t SmemDescriptor::encode() const {
  if (base_offset < 0 || base_offset > 7) desc_error(fmt::format("base offset {} is outside [0, 8)", base_offset));
  const bool hopper = variant == DescriptorVariant::kHopper;
  if (hopper && lbo_absolute) desc_error("wgmma descriptors have no LBO mode bit");
  std::uint64_t d = 0;
  d |= field(start_address, "start address");
  d |= field(lbo, "LBO") << 16;
  d |= field(sbo, "SBO") << 32;
  d |= static_cast<std::uint64_t>(base_offset) << 49;
  if (hopper) {
    d |= static_cast<std::uint64_t>(swizzle_code(swizzle, variant)) << 62;
  } else {
    d |= std::uint64_t{1} << 46;  // fixed 0b001 in bits 46..48 (version 1)
    d |= static_cast<std::uint64_t>(lbo_absolute ? 1 : 0) << 52;
    d |= static_cast<std::uint64_t>(swizzle_code(swizzle, variant)) << 61;
  }
  return d;
}

SmemDescriptor SmemDescriptor::decode(std::uint64_t bits, DescriptorVariant variant) {
  const bool hopper = variant == DescriptorVariant::kHopper;
  const std::uint64_t version = (bits >> 46) & 7;
  if (!hopper && version != 1) desc_error(fmt::format("descriptor 0x{:016X}: bits 46..48 must be 0b001", bits));
  if (hopper && version != 0) desc_error(fmt::format("wgmma descriptor 0x{:016X}: bits 46..48 must be 0", bits));
  std::uint64_t reserved = (std::uint64_t{3} << 14) | (std::uint64_t{3} << 30) |
                           (hopper ? (std::uint64_t{0x3FF} << 52) : (std::uint64_t{0xFF} << 53));
  if (bits & reserved) desc_error(fmt::format("descriptor 0x{:016X} has reserved bits set", bits));
  SmemDescriptor d;
  d.variant = variant;
  d.start_address = static_cast<std::uint32_t>(bits & 0x3FFF) << 4;
  d.lbo = static_cast<std::uint32_t>((bits >> 16) & 0x3FFF) << 4;
  d.sbo = static_cast<std::uint32_t>((bits >> 32) & 0x3FFF) << 4;
  d.base_offset = static_cast<int>((bits >> 49) & 7);
  d.lbo_absolute = !hopper && ((bits >> 52) & 1);
  d.swizzle = swizzle_of(static_cast<int>(hopper ? (bits >> 62) & 3 : (bits >> 61) & 7), variant, bits);
  return d;
}

std::uint64_t SmemDescriptor::element_address(int mn, int k, int elem_bytes, bool mn_major) const {
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8)
    desc_error(fmt::format("element size {} bytes is not 1, 2, 4 or 8", elem_bytes));
  return element_bit_address(mn, k, 8 * elem_bytes, mn_major) / 8;
}

std::uint64_t SmemDescriptor::element_bit_address(int mn, int k, int elem_bits, bool mn_major) const {
  if (lbo_absolute) desc_error("the absolute LBO mode (bit 52, sm_103a) is not modelled");
  if (swizzle == TmaSwizzle::k128BAtom32B)
    desc_error("128B_ATOM_32B operands are not modelled (the MN-major K stride is unstated; K-major is invalid)");
  if (elem_bits != 4 && elem_bits != 8 && elem_bits != 16 && elem_bits != 32 && elem_bits != 64)
    desc_error(fmt::format("element size {} bits is not 4, 8, 16, 32 or 64", elem_bits));
  if (mn < 0 || k < 0) desc_error(fmt::format("negative operand index ({}, {})", mn, k));
  const std::uint64_t kChunk = 16, kRows = 8;  // core matrix: 8 rows x 16 bytes
  const std::uint64_t bits = static_cast<std::uint64_t>(elem_bits), t = kChunk * 8 / bits;
  const std::uint64_t m = static_cast<std::uint64_t>(mn), kk = static_cast<std::uint64_t>(k);
  if (swizzle == TmaSwizzle::kNone) {
    if (!mn_major)
      return 8 * (start_address + (m / kRows) * sbo + (kk / t) * lbo + (m % kRows) * kChunk) + (kk % t) * bits;
    return 8 * (start_address + (m / t) * sbo + (kk / kRows) * lbo + (kk % kRows) * kChunk) + (m % t) * bits;
  }
  const std::uint64_t span = static_cast<std::uint64_t>(tma_swizzle_span_bytes(swizzle));
  std::uint64_t pre_bits;  // unswizzled bit address; the swizzle moves whole 16-byte chunks
  if (!mn_major) {
    if (kk * bits >= span * 8)
      desc_error(fmt::format("K-major element k = {} lies beyond the {}-byte swizzle span", k, span));
    pre_bits = 8 * (start_address + (m / kRows) * sbo + (m % kRows) * span) + kk * bits;
  } else {
    const std::uint64_t row = span * 8 / bits;  // MN elements per swizzled row
    pre_bits = 8 * (start_address + (m / row) * lbo + (kk / kRows) * sbo + (kk % kRows) * span) + (m % row) * bits;
  }
  // The line index counted from the base offset, modulo the lines of one pattern (S / 16).
  const std::uint64_t pre = pre_bits / 8;
  const std::uint64_t lines = span / kChunk;
  const std::uint64_t phase = ((pre >> 7) + 8 * lines - static_cast<std::uint64_t>(base_offset)) % lines;
  return pre_bits ^ (phase << 7);
}

CanonicalAddresser::CanonicalAddresser(const SmemDescriptor& d, int elem_bits, bool mn_major)
    : start_(d.start_address), lbo_(d.lbo), sbo_(d.sbo), bits_(static_cast<std::uint64_t>(elem_bits)), t_(1),
      mn_major_(mn_major) {
  (void)d.element_bit_address(0, 0, elem_bits, mn_major);  // the same validation
  t_ = 128 / bits_;
  span_ = static_cast<std::uint64_t>(tma_swizzle_span_bytes(d.swizzle));
  if (span_) {
    row_ = span_ * 8 / bits_;
    lines_ = span_ / 16;
    shift_ = 8 * lines_ - static_cast<std::uint64_t>(d.base_offset);
  }
}

}  // namespace tirx::hw
