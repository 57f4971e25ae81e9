// Internal: one function per check (each defined in its own check_<name>.cpp) and helpers the
// checks share. Not installed.
#pragma once

#include <chrono>
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
