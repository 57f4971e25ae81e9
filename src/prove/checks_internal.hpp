// Internal: one function per check (each defined in its own check_<name>.cpp) and helpers the
// checks share. Not installed.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "tirx_verify/layout/sweep.hpp"
#include "tirx_verify/prove/check.hpp"
#include "tirx_verify/prove/engine.hpp"

namespace tirx::prove {

CheckResult check_well_formed(const CheckInput& in);
CheckResult check_injective(const CheckInput& in);
CheckResult check_bounds(const CheckInput& in);
CheckResult check_swizzle_legal(const CheckInput& in);
CheckResult check_tmem_alloc(const CheckInput& in);
CheckResult check_equivalent(const CheckInput& in);
CheckResult check_tmem_partition(const CheckInput& in);
CheckResult check_tmem_datapath(const CheckInput& in);
CheckResult check_bank_conflicts(const CheckInput& in);

// Sufficient condition for injectivity from the strides alone (injective_structural.cpp).
// Declared broadcast iters are left out; any other stride-0 shard iter of extent > 1 makes it
// false.
bool injective_by_strides(const TileLayout& l, Scope scope);
// The first shard iter of extent > 1 and stride 0 that is not a declared broadcast (a
// contraction: its digits 0 and 1 give two elements with the same image), if any.
std::optional<std::size_t> contraction_iter(const TileLayout& l);

// The axes that name an element's storage cell in `scope` (see Scope in check.hpp), restricted
// to the axes the layout uses.
std::vector<Axis> storage_axes(const TileLayout& l, Scope scope);

// Calls f(const Coord&) for every replica image of the element with shard digits `digits`
// (D(x) + O + r, odometer order, last replica iter fastest), one at a time: a layout may have
// billions of replica copies, so they are never collected into a vector.
template <class F>
void for_each_replica_image(const TileLayout& l, const std::vector<std::int64_t>& digits, F f) {
  const Coord base = l.apply_iters(digits);
  std::vector<std::int64_t> r(l.replica.size(), 0);
  while (true) {
    Coord c = base;
    for (std::size_t t = 0; t < l.replica.size(); ++t) c.add(l.replica[t].axis, r[t] * l.replica[t].stride);
    f(c);
    std::size_t t = l.replica.size();
    while (t > 0 && ++r[t - 1] == l.replica[t - 1].extent) r[--t] = 0;
    if (t == 0) return;
  }
}

// Points (elements x replica copies) of a layout; the int64 maximum if that overflows.
inline std::int64_t point_count(const TileLayout& l) {
  std::int64_t n = 0;
  if (__builtin_mul_overflow(l.size(), l.replica_count(), &n)) return INT64_MAX;
  return n;
}

// The range an axis must stay in (from the target's MachineLimits and the allocation):
//   laneid    [0, warp_size)             wid_in_wg [0, warps_per_warpgroup)
//   tid_in_wg [0, warp_size * wpw)       tx        [0, max_threads_per_cta) (if known)
//   TLane     [0, tmem_lanes)            TCol      [0, columns * 32/bits) in elements
//   m         [0, alloc_elems) if known; for a register fragment (local scope) below the
//             registers per thread x elements per register; else >= 0
//   other thread axes (warpid, wgid, bx.., cbx..) and P/F/Bank: >= 0
struct AxisRange {
  std::int64_t lo = 0;
  std::optional<std::int64_t> hi;  // exclusive
  std::string why;
};
AxisRange range_for(Axis a, const CheckInput& in);

// Everything layout.bounds proves, in report order: one target per axis the layout uses
// (replicas included) with its range_for, and for a swizzled ComposeLayout a second target on m:
// the swizzled address must stay inside the tile's own footprint [0, span) (a whole buffer), or
// for a view with an m offset inside the swizzle periods the view touches.
std::vector<BoundTarget> bound_targets(const CheckInput& in);

// ---- engine selection (dispatch.cpp) ----
// One engine's attempt at a check: a complete CheckResult with `engine` set, or status
// kNotApplicable when that engine cannot decide this input (message: why).
using EngineAttempt = std::function<CheckResult(Engine)>;
// Auto mode, before running engine `e` after others failed to decide: a reason to skip it (it
// cannot fit the budget that is left, e.g. enumeration after a Z3 timeout), or empty to run it.
using EngineGate = std::function<std::string(Engine)>;

// Runs the engine(s) `in` asks for and returns the check's result:
//   cross_check   every engine in `engines`; the verdicts (pass/fail) must agree, else kFail with
//                 a message naming each engine and its verdict and witness {"engines": [...]}; on
//                 agreement, the first decisive result in `auto_order` with engine "a+b+c" and
//                 each engine's verdict and time appended to the message
//   kAuto         `auto_order` until one engine decides (pass or fail); an engine that `gate`
//                 refuses is not run (its reason joins the "no engine decided" message)
//   forced engine that engine; kNotApplicable becomes kUndecided "<engine> cannot decide: why"
CheckResult dispatch(const CheckInput& in, const std::vector<Engine>& auto_order, const std::vector<Engine>& engines,
                     const EngineAttempt& attempt, const EngineGate& gate = {});

// The gate for enumeration in auto mode: refuses when the estimated sweep (`seconds`, `bytes`,
// from EnumCost or kEnum*NsPerPoint) does not fit what is left of in.limits.budget.
std::string enum_gate(const CheckInput& in, double seconds, std::int64_t bytes, std::int64_t points);

// A witness an engine produced that does not survive direct evaluation (an engine bug): the
// answer is "undecided", never a wrong "fail".
CheckResult witness_rejected(CheckResult r, const std::string& why);

// JSON for one point of a sweep: {"logical": [...], "flat": f, "replica": r}.
nlohmann::json point_json(const CheckInput& in, std::int64_t flat, std::int64_t replica);
// JSON object {"axis": value, ...} for a Coord.
nlohmann::json coord_json(const Coord& c);

// Measures the wall time of a check.
class Stopwatch {
 public:
  Stopwatch() : t0_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace tirx::prove
