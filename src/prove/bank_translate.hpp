// Internal: smem.bank-conflicts by translation — the instructions that are copies of one another.
//
// The wavefront count of one warp-wide access depends only on its 32 addresses up to a common
// translation by a multiple of the access width (words shift together: equal words stay equal,
// one bank stays one bank, alignment is kept). A buffer of R padded rows read row by row has R/32
// (or R*chunks/32) instructions that are such translates of each other, so the count of every
// instruction is known from the instructions of one row group.
//
// Both layouts (buffer and --access fragment) are mixed-radix over one flat element index; their
// common refinement (every suffix product of either, when they form a divisibility chain) gives
// digits d_i of extent E_i, each with a buffer coefficient (element address m) and fragment
// coefficients (thread index, register slot; fragment.hpp). A digit is *outer* when
//   - it moves only the warp or only the instruction: its thread coefficient is a positive
//     multiple of warp_size and its slot coefficient 0, or its slot coefficient a positive
//     multiple of k (slots per vector) and its thread coefficient 0 (lane and vector slot stay);
//   - its byte coefficient (m coefficient x element bytes) is a multiple of the access width,
//     and with a swizzle its m coefficient is a multiple of the swizzle period 2^(M+B+S) (the
//     XOR reads and writes only bits below it: swz(m + c P) = swz(m) + c P);
//   - the outer digits are *separated* from everything else on their component (warp or
//     instruction): sorted by coefficient c_1 <= c_2 <= ..., each c_j exceeds the span of that
//     component over the other (inner) digits, replicas and offsets plus sum_{i<j} c_i (E_i - 1).
// Separation makes two points of one instruction share their outer digits (the difference of
// their outer contributions would exceed what the inner digits can make up), so every
// instruction is a translate (by sum c_i d_i bytes and warp/instruction numbers) of one with all
// outer digits 0: the reduced problem (the inner digits alone, same offsets, replicas and
// swizzle) has the same per-instruction counts, the same first worst instruction (outer
// coefficients are positive, so outer digits only move an instruction later in (warp,
// instruction) order) and the same first torn or unaligned vector, and the full problem has
// `copies` = prod E_outer times its instructions and wavefronts.
//
// Refused (nullopt: the caller decides the full problem) when no digit is outer, the extents do
// not refine, a coefficient or the address range overflows int64 (the full problem reports
// that), or a thread or register slot can be negative (the full problem names that element).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tirx_verify/prove/check.hpp"

namespace tirx::prove::banks {

struct Translated {
  Layout buffer;           // the reduced buffer (inner digits; offset and swizzle kept)
  TileLayout access;       // the reduced fragment (inner digits; replicas and offset kept)
  std::int64_t copies = 1; // instructions of the full problem per instruction of the reduced one
  int outer_digits = 0;    // how many digits were removed
};

// in: a shared buffer with its --access fragment of the same element count; elem_bytes >= 1;
// width_bytes the access width (4, 8, 16), a multiple of elem_bytes. Never throws for overflow
// (returns nullopt instead).
std::optional<Translated> translate_instructions(const CheckInput& in, std::int64_t elem_bytes, int width_bytes);

}  // namespace tirx::prove::banks
