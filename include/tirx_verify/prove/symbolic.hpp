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
  // The --access fragment when it is one layout at every binding (its text names no parameter;
  // it may be a factory call, outside the symbolic subset): tmem.partition reads it as a
  // constant symbolic layout when `access` is absent, and tmem.datapath needs it fixed.
  std::optional<Layout> access_fixed;
  // Why --access has no symbolic form (NotSymbolic's reason), for the undecided messages.
  std::string access_why;
};

// The three results, in symbolic_check_ids() order (then smem.bank-conflicts when `access` is
// given and the check applies at the first binding); engine "z3-symbolic" (a fail re-checked by
// the concrete check: "z3-symbolic+<engine>"). Messages say "for all N=8..4096:8 (512 bindings)".
// A result is kUndecided naming the limit when Z3 hits one. Throws NotSymbolic when a term can
// reach 2^63 in magnitude over the ranges (the concrete layouts could overflow int64).
std::vector<CheckResult> run_symbolic(const SymbolicInput& in);

// Bit width W of the symbolic encoding of `in` (exposed for tests and messages).
unsigned symbolic_width(const SymbolicInput& in);

// With a TMEM buffer and an --access fragment, run_symbolic also gives (after the others):
//   tmem.partition  one query over the digits of both layouts tied by the flat index: sizes differ,
//                   or an element's thread belongs to warp w and no copy of it lies on lanes
//                   [32w, 32w+32) (PTX ISA 9.1 §9.7.16.8.1). The buffer's TLane replica copies
//                   are expanded (at most 256 at the ranges' largest extents; more: undecided,
//                   named). The fragment: `access`, or `access_fixed` as constants; neither:
//                   undecided naming access_why.
//   tmem.datapath   decided from the first binding when the buffer without its TCol offset and
//                   the fragment are the same layouts at every binding (every extent, stride and
//                   other offset constant): the data path, the atom and the comparison are then
//                   binding-independent, and the TCol base moves the layout and the instructions'
//                   columns together, so only the base matters: it must be a whole 32-bit column,
//                   >= 0 and < 65536 columns (tcgen05 addresses keep 16 column bits). One params-
//                   only query over the base. Otherwise undecided, naming the iter that varies
//                   (the check compares canonical forms with the data-path factories, which has
//                   no symbolic encoding).
// Both n/a when they are n/a at the first binding (applicability depends on scope and options).

// layout.equivalent for every binding (`tirx-verify equiv A B --param ...`).
struct SymbolicEquivalenceInput {
  SymLayout a, b;
  std::vector<ParamRange> params;
  std::optional<std::int64_t> shape_elems;  // the --shape product (both sizes must equal it)
  // The concrete CheckInput of one binding (layout, other, shape, engine options); throws
  // InputError for a binding that is not a valid input.
  std::function<CheckInput(const Env&)> at;
  EngineLimits limits;
};

// The layout.equivalent result for every binding: extents >= 1 and the sizes against the shape
// (params-only queries: a binding where they fail is bad input, the InputError of the concrete
// check at the smallest such binding is thrown), then the concrete check at sample bindings,
// then one query over both layouts' digits tied by the flat index (symbolic_internal.hpp
// equivalent(): the other side's replica copies expanded, at most 256; two ComposeLayouts with
// the same swizzle compared by their tiles). A fail is minimized and re-checked concretely
// (engine "z3-symbolic+<engine>", witness.params). Throws NotSymbolic as run_symbolic.
CheckResult run_symbolic_equivalent(const SymbolicEquivalenceInput& in);

}  // namespace tirx::prove
