// tirx_verify/layout/swizzle_block.hpp — how far a swizzle can move an address.
//
// SwizzleSpec::apply XORs one bit field of m: bits [M, M+B) (swizzle_inner, the usual case) or
// [M+S, M+S+B) (swizzle_inner=False), and keeps every bit from the top of that field up. So a
// swizzled address stays in m's aligned block of swizzle_block() elements, and every swizzled
// address of an m in [a, b] lies in [floor(a/P) P, (floor(b/P) + 1) P - 1], P the block
// (floor division is monotone; OR-ing the field into b is not a bound: 16 | 256 > 256 | 256).
// Used by layout.bounds and kernel.overlap to bound swizzled buffers without a sweep.
#pragma once

#include <cstdint>
#include <utility>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/compose_layout.hpp"

namespace tirx {

// 2^(M+B), or 2^(M+S+B) when !swizzle_inner (at most 2^62: SwizzleSpec::validate).
inline std::int64_t swizzle_block(const SwizzleSpec& z) {
  return std::int64_t{1} << (z.per_element + z.swizzle_len + (z.swizzle_inner ? 0 : z.atom_len));
}

// [lo, hi] rounded out to whole swizzle blocks, the range of every swizzled address of an m in
// [lo, hi]. Throws the InputError of checked_mul / checked_add (layout/checked.hpp) when that
// passes int64.
inline std::pair<std::int64_t, std::int64_t> swizzled_range(const SwizzleSpec& z, std::int64_t lo, std::int64_t hi) {
  const std::int64_t block = swizzle_block(z);
  return {checked_mul(floor_div(lo, block), block),
          checked_add(checked_mul(checked_add(floor_div(hi, block), 1), block), -1)};
}

}  // namespace tirx
