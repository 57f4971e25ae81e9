// Internal: one function per check (each defined in its own check_<name>.cpp) and helpers the
// checks share. Not installed.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "tirx_verify/layout/sweep.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {

CheckResult check_well_formed(const CheckInput& in);
CheckResult check_injective(const CheckInput& in);
CheckResult check_bounds(const CheckInput& in);
CheckResult check_swizzle_legal(const CheckInput& in);
CheckResult check_tmem_alloc(const CheckInput& in);
CheckResult check_tmem_partition(const CheckInput& in);
CheckResult check_tmem_datapath(const CheckInput& in);
CheckResult check_bank_conflicts(const CheckInput& in);

// Sufficient condition for injectivity from the strides alone (injective_structural.cpp).
bool injective_by_strides(const TileLayout& l, Scope scope);

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
