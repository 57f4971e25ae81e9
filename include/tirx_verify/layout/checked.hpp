// tirx_verify/layout/checked.hpp — int64 arithmetic that never overflows silently.
//
// Extents, strides, offsets and spans are int64. Every product or sum that can grow with
// user input goes through these helpers; an overflow is reported as a `layout.well-formed`
// InputError ("integer overflow in <what>"), never as undefined behaviour.
#pragma once

#include <cstdint>
#include <string_view>

#include "tirx_verify/layout/error.hpp"

namespace tirx {

[[noreturn]] void throw_overflow(std::string_view what);

inline std::int64_t checked_add(std::int64_t a, std::int64_t b, std::string_view what = "sum") {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw_overflow(what);
  return r;
}

inline std::int64_t checked_sub(std::int64_t a, std::int64_t b, std::string_view what = "difference") {
  std::int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw_overflow(what);
  return r;
}

inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, std::string_view what = "product") {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw_overflow(what);
  return r;
}

// Floor division and modulo (Python semantics, as TVM's floordiv/floormod); b != 0, and not
// (INT64_MIN, -1) for floor_div. floor_mod never overflows: it corrects the truncated remainder
// instead of computing a - floor_div(a, b) * b (fuzzing found 9223372036854775807 % -44 overflow
// that product; the answer is -37).
inline std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline std::int64_t floor_mod(std::int64_t a, std::int64_t b) {
  if (b == -1) return 0;  // INT64_MIN % -1 is undefined in C++; every a is a multiple of -1
  const std::int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

inline bool is_pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
inline int log2_exact(std::int64_t v) { return 63 - __builtin_clzll(static_cast<unsigned long long>(v)); }

}  // namespace tirx
