// tirx_verify/prove/z3_engine.hpp — the Z3 engine: a property is proved by asking for a
// counterexample over bit-vector terms (z3++.h stays inside src/prove).
//
// Encoding (DESIGN.md, "Proof engines, a note on encoding"): an element is its shard digits,
// never a flat index taken apart with div/mod. Each digit c_k is a variable bounded by
// 0 <= c_k <= extent_k - 1, and each axis is an affine sum
//
//   value(axis) = sum over iters on axis of c_k * stride_k  + offset(axis)
//
// (replica digits likewise). Two arithmetics:
//   * no swizzle (or swizzle_len 0): linear integer arithmetic (QF_LIA) — exact, nothing can
//     wrap, and 10-100x faster than bit-blasting on non-power-of-two proofs (bench_prove:
//     S[(33280,64):(82,1)] injective in ~1 ms as integers, ~30 ms-3 s as bit-vectors);
//   * a swizzle acts on the bits of m, so a ComposeLayout is encoded in bit-vectors: digits just
//     wide enough for extent_k - 1 (with c_k <= extent_k - 1 unless extent_k = 2^bits),
//     zero-extended to a common width W, and
//       swizzle_inner : m XOR ((m >>u S) AND ((2^B - 1) << M))   bits [M+S, M+S+B) into [M, M+B)
//       otherwise     : m XOR ((m AND ((2^B - 1) << M)) << S)    bits [M, M+B) into [M+S, M+S+B)
//     W is chosen so nothing wraps: every partial sum on an axis is bounded by
//     sum |stride_k| * (extent_k - 1) + |offset|, so W = bits of that bound (and of the flat index
//     and the range limits) + 2 (sign and headroom), and W >= M+B+S+2 so the swizzled bits and the
//     sign bit stay apart; comparisons are signed. Example: the 128B fp16 tile
//     ComposeLayout(3,3,3, S[(8,64):(64,1)]) -> digits of 3 and 6 bits, W = 12.

// Queries (each "sat" is a counterexample, read back from the model as digits):
//   injective   two points P != Q (some shard or replica digit differs; the digits of declared
//               broadcast iters, Iter::is_declared_broadcast, fixed at 0; an undeclared stride-0
//               digit varies like any other, so it collides) with equal storage cells
//   bounds      one point with value < lo or value >= hi, one query per target
//   equivalent  digits a of A and b of B with flat(a) = flat(b) (a linear equation, no
//               division) such that some image of a is not among the images of b (or the
//               reverse); "among" expands over the other side's replica copies when there are at
//               most 256 of them and is a bit-vector forall otherwise. The first differing
//               element is then found by bisection on the flat index.
//
// Limits: EngineLimits::z3_timeout_ms is the wall-clock budget of all queries of one call;
// z3_memory_mb sets Z3's process-wide memory ceiling. Hitting either answers kUndecided with a
// message naming the limit ("z3 timeout: z3_timeout_ms=...", "z3 memory limit: z3_memory_mb=...").
// With a command budget (EngineLimits::budget) each query gets the smaller of what is left of
// z3_timeout_ms and of the budget's deadline, and the memory ceiling is at most the budget's
// allowance; when the budget's deadline is what stopped Z3, these functions throw
// BudgetExceeded (the check answers undecided naming the time limit) instead.
#pragma once

#include <span>

#include "tirx_verify/prove/engine.hpp"

namespace tirx::prove::z3engine {

InjectivityAnswer injective(const Layout& l, Scope scope, const EngineLimits& limits);
BoundsAnswer bounds(const Layout& l, std::span<const BoundTarget> targets, const EngineLimits& limits);
// Sizes must be equal (kNotApplicable otherwise).
EquivalenceAnswer equivalent(const Layout& a, const Layout& b, const EngineLimits& limits);

// The common bit width W the encoder uses for `l` when values up to |extra| must also be
// representable (range limits, a flat index). Exposed for tests.
unsigned term_width(const Layout& l, std::int64_t extra = 0);

}  // namespace tirx::prove::z3engine
