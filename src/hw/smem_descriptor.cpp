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

int swizzle_code(TmaSwizzle s) {
  switch (s) {
    case TmaSwizzle::kNone: return 0;
    case TmaSwizzle::k128BAtom32B: return 1;
    case TmaSwizzle::k128B: return 2;
    case TmaSwizzle::k64B: return 4;
    case TmaSwizzle::k32B: return 6;
    default: desc_error(fmt::format("swizzle mode {} has no tcgen05 descriptor code", to_string(s)));
  }
}
}  // namespace

std::uint64_t SmemDescriptor::encode() const {
  if (base_offset < 0 || base_offset > 7) desc_error(fmt::format("base offset {} is outside [0, 8)", base_offset));
  std::uint64_t d = 0;
  d |= field(start_address, "start address");
  d |= field(lbo, "LBO") << 16;
  d |= field(sbo, "SBO") << 32;
  d |= std::uint64_t{1} << 46;  // fixed 0b001 in bits 46..48 (version 1)
  d |= static_cast<std::uint64_t>(base_offset) << 49;
  d |= static_cast<std::uint64_t>(lbo_absolute ? 1 : 0) << 52;
  d |= static_cast<std::uint64_t>(swizzle_code(swizzle)) << 61;
  return d;
}

SmemDescriptor SmemDescriptor::decode(std::uint64_t bits) {
  if (((bits >> 46) & 7) != 1) desc_error(fmt::format("descriptor 0x{:016X}: bits 46..48 must be 0b001", bits));
  std::uint64_t reserved = (std::uint64_t{3} << 14) | (std::uint64_t{3} << 30) | (std::uint64_t{0xFF} << 53);
  if (bits & reserved) desc_error(fmt::format("descriptor 0x{:016X} has reserved bits set", bits));
  SmemDescriptor d;
  d.start_address = static_cast<std::uint32_t>(bits & 0x3FFF) << 4;
  d.lbo = static_cast<std::uint32_t>((bits >> 16) & 0x3FFF) << 4;
  d.sbo = static_cast<std::uint32_t>((bits >> 32) & 0x3FFF) << 4;
  d.base_offset = static_cast<int>((bits >> 49) & 7);
  d.lbo_absolute = (bits >> 52) & 1;
  switch ((bits >> 61) & 7) {
    case 0: d.swizzle = TmaSwizzle::kNone; break;
    case 1: d.swizzle = TmaSwizzle::k128BAtom32B; break;
    case 2: d.swizzle = TmaSwizzle::k128B; break;
    case 4: d.swizzle = TmaSwizzle::k64B; break;
    case 6: d.swizzle = TmaSwizzle::k32B; break;
    default: desc_error(fmt::format("descriptor 0x{:016X}: swizzle code {} is invalid", bits, (bits >> 61) & 7));
  }
  return d;
}

std::uint64_t SmemDescriptor::chunk_address(int row, int chunk) const {
  if (base_offset != 0) desc_error("a non-zero descriptor base offset is not modelled");
  if (lbo_absolute) desc_error("the absolute LBO mode (bit 52, sm_103a) is not modelled");
  if (swizzle == TmaSwizzle::k128BAtom32B)
    desc_error("128B_ATOM_32B descriptors are MN-major only; K-major source rows are not modelled");
  const int kChunk = 16, kRowsPerGroup = 8;  // core matrix: 8 rows x 16 bytes (PTX §9.7.16.3.3)
  std::uint64_t r = static_cast<std::uint64_t>(row), k = static_cast<std::uint64_t>(chunk);
  if (swizzle == TmaSwizzle::kNone)
    return start_address + (r / kRowsPerGroup) * sbo + k * lbo + (r % kRowsPerGroup) * kChunk;
  std::uint64_t span = static_cast<std::uint64_t>(tma_swizzle_span_bytes(swizzle));
  if ((k + 1) * kChunk > span)
    desc_error(fmt::format("chunk {} of a row lies beyond the {}-byte swizzle span", chunk, span));
  return swizzle_address(swizzle, start_address + (r % kRowsPerGroup) * span + (r / kRowsPerGroup) * sbo + k * kChunk);
}

}  // namespace tirx::hw
