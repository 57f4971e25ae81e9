// tirx_verify/prove/symbolic.hpp — checks decided for every parameter binding at once.
//
// `tirx-verify check 'S[(N, 64):(64, 1)]' --param N=8..4096:8 --alloc-elems 'N*64'` asks whether
// a property holds for all 512 values of N. A sweep re-checks the layout per binding; the
// symbolic engine (Z3, bit-vectors) decides layout.well-formed, layout.injective and
// layout.bounds with ONE query each over a SymLayout (layout/symbolic.hpp), so the range may
// hold billions of values.
//
// Encoding (src/prove/z3_symbolic.cpp). A parameter P in lo..hi:step is lo + step*k with a
// bit-vector variable 0 <= k <= count-1; extents, strides, offsets and the allocation are the
// SymExpr terms over those (+, -, *, floor // and % with floor semantics from bvsdiv/bvsrem);
// shard and replica digits are variables 0 <= c < extent(P). Products such as c * stride(P) are
// non-linear, so everything is in W-bit vectors with signed comparisons; W comes from interval
// bounds of every term over the ranges (SymExpr::bounds) plus 3 bits, so nothing wraps.
// Queries, each "sat" a counterexample binding:
//   well-formed  some extent < 1
//   injective    two points with different digits and equal storage cells (a stride-0 shard
//                digit varies like any other unless `allow_broadcast` declares the view a
//                broadcast, which fixes it at 0 — exactly as the concrete check)
//   bounds       one point with a coordinate outside its range (the ranges of range_for; the
//                allocation may be an expression in the parameters), and for a swizzled
//                ComposeLayout the swizzled address outside the footprint of bound_targets
// A query only ranges over well-formed bindings (extents >= 1).
//
// Every "fail" is re-checked: the concrete check runs at the binding Z3 found (with the usual
// engines) and must fail too; its witness (plus "params") is what is reported. If it passes,
// the answer is "undecided" naming the disagreement, never a wrong "fail".
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tirx_verify/layout/symbolic.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {

// The check ids the symbolic engine decides.
inline const std::vector<std::string>& symbolic_check_ids() {
  static const std::vector<std::string> ids = {"layout.well-formed", "layout.injective", "layout.bounds"};
  return ids;
}

struct SymbolicInput {
  SymLayout layout;
  std::string text;                    // the layout as written
  std::vector<ParamRange> params;      // every parameter the layout (or allocation) uses
  std::optional<SymExpr> alloc_elems;  // memory allocation on m in elements, may use parameters
  // The concrete CheckInput of one binding (the layout, shape, scope, machine limits, engine
  // options exactly as a sweep would build them). Throws InputError for a binding that is not a
  // valid input. Called for the first binding (ranges that do not depend on parameters) and for
  // each counterexample binding (the re-check).
  std::function<CheckInput(const Env&)> at;
  EngineLimits limits;     // limits.budget: the command's budget (a check that runs out is undecided)
  bool allow_broadcast = false;  // CheckInput::allow_broadcast for every binding
  // The --access fragment as a symbolic layout (absent: not given, or outside the symbolic
  // subset). With a shared buffer and an element type, smem.bank-conflicts is decided for every
  // binding too (prove/bank_engines.hpp z3_layout), as a fourth result.
  std::optional<SymLayout> access;
};

// The three results, in symbolic_check_ids() order (then smem.bank-conflicts when `access` is
// given and the check applies at the first binding); engine "z3-symbolic" (a fail re-checked by
// the concrete check: "z3-symbolic+<engine>"). Messages say "for all N=8..4096:8 (512 bindings)".
// A result is kUndecided naming the limit when Z3 hits one. Throws NotSymbolic when a term can
// exceed 2^62 in magnitude over the ranges (the concrete layouts could overflow int64).
std::vector<CheckResult> run_symbolic(const SymbolicInput& in);

// Bit width W of the symbolic encoding of `in` (exposed for tests and messages).
unsigned symbolic_width(const SymbolicInput& in);

}  // namespace tirx::prove
