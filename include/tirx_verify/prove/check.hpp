// tirx_verify/prove/check.hpp — what a check is, what it answers, and the registry of checks.
//
// A check is a unit (clang-tidy style): a stable id that is never renamed once released, one
// source file (src/prove/check_<name>.cpp), a one-line description, a witness format, and one
// entry in the registry (check_registry.cpp) — `tirx-verify --list-checks` prints that list.
//
// Every "no" carries a concrete witness (JSON): e.g. for layout.injective
//   {"a": {"logical": [3, 5], "replica": 0}, "b": {"logical": [7, 1], "replica": 1},
//    "cell": {"TLane": 17, "TCol": 4}}
// so a person (or a test) can re-check it by evaluating the layout at both elements.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tirx_verify/layout/budget.hpp"
#include "tirx_verify/layout/layout.hpp"

namespace tirx::hw {
struct Target;
}

namespace tirx::prove {

enum class Status { kPass, kFail, kUndecided, kNotApplicable };
std::string_view status_name(Status s);  // "pass", "fail", "undecided", "n/a"

// How bad a failed check is (docs/checks.md "Severities"): error = wrong data (two elements in
// one cell, an address out of its range, two parts of a kernel that disagree); warning =
// correct but slow or fragile (bank conflicts, a fragment that must spill registers, reliance
// on hardware behaviour PTX does not state); note = information. `--fail-on` picks the lowest
// severity that fails a run.
enum class Severity { kError, kWarning, kNote };
std::string_view severity_name(Severity s);  // "error", "warning", "note"
// "error", "warning", "note"; throws InputError("cli.usage") otherwise.
Severity parse_severity(std::string_view s);

// Where a buffer lives; decides which axes form the storage cell of an element.
//   shared/global : the cell is the (swizzled) element address on m (and P/F/Bank if used)
//   tmem          : (TLane, TCol)
//   local         : (every thread axis, m) — two elements may share a thread, not a register slot
//   unknown       : every axis the layout uses
enum class Scope { kUnknown, kShared, kGlobal, kTmem, kLocal };
Scope parse_scope(std::string_view s);  // "shared", "shared.dyn", "global", "tmem", "local"; throws
std::string_view scope_name(Scope s);

// Sizes of the machine that bound coordinates. Filled from a target description
// (models/targets/*.json) by the caller; see bounds_from_target in the CLI.
struct MachineLimits {
  std::int64_t warp_size = 0;           // laneid < warp_size
  std::int64_t warps_per_warpgroup = 0; // wid_in_wg < this; tid_in_wg < warp_size * this
  std::int64_t max_threads_per_cta = 0; // tx < this (0: unchecked)
  std::int64_t tmem_lanes = 0;          // TLane < this (0: no TMEM on the target)
  std::int64_t tmem_columns = 0;        // 32-bit columns per CTA
  std::int64_t tmem_alloc_min_columns = 0;
  std::int64_t max_registers_per_thread = 0;  // 32-bit registers one thread can hold (0: unchecked)
};

// The limits a target description imposes (warp size, TMEM geometry, register budget, ...).
MachineLimits machine_limits(const hw::Target& t);

// The proof engines (src/prove). Each decides a property exactly or says it cannot:
//   enum : odometer sweep over every (element, replica) point      any concrete layout, cost ~ points
//   gf2  : row reduction over the digit bits                        power-of-two, carry-free layouts, ~us
//   z3   : SMT query for a counterexample (integers; bit-vectors    any concrete layout, ~0.5-3 ms
//          when swizzled)
// kAuto picks the cheapest engine that can decide (the O(iters) structural / interval shortcuts
// first, then gf2 if it applies, enum up to EngineLimits::enum_crossover_points, else z3; enum
// again if z3 hits a limit and the sweep fits). See docs/checks.md "Proof engines".
enum class Engine { kAuto, kEnum, kGf2, kZ3 };
std::string_view engine_name(Engine e);   // "auto", "enum", "gf2", "z3"
Engine parse_engine(std::string_view s);  // the names above; throws InputError("cli.usage")

// The measured point count below which enumeration beats Z3 (tests/bench/bench_prove.cpp,
// docs/performance.md): a Z3 injectivity proof costs ~0.6-1 ms (median over the engine-test
// layouts), what sweeping ~2^17 points costs at ~5 ns per point.
inline constexpr std::int64_t kEnumCrossoverPoints = std::int64_t{1} << 17;

// Proof-engine limits. Hitting one answers "undecided" naming the limit, never a guess.
struct EngineLimits {
  std::int64_t max_enumeration_points = std::int64_t{1} << 28;
  std::int64_t max_dense_cells = std::int64_t{1} << 27;  // bitmap codomain size for injectivity
  std::int64_t enum_crossover_points = kEnumCrossoverPoints;  // auto: enum at or below, z3 above
  // Upper bound of one check's Z3 queries, milliseconds; Z3 never gets more than the time left
  // in `budget` either.
  std::int64_t z3_timeout_ms = 20000;
  std::int64_t z3_memory_mb = 4096;    // Z3's memory ceiling (process-wide Z3 setting), megabytes
  // The command's time and memory budget (layout/budget.hpp), shared by every check it runs;
  // nullptr: unlimited. Enumeration loops poll its deadline, large structures charge their
  // memory to it, Z3 gets the time it has left; when it runs out the check is undecided naming
  // it (run_all turns BudgetExceeded and std::bad_alloc into that answer).
  Budget* budget = nullptr;
};

// Estimated cost of enumeration, for auto mode's choice (docs/performance.md has the measured
// numbers these are rounded up from): nanoseconds per point and bytes per cell or point.
inline constexpr double kEnumDenseNsPerPoint = 10;    // owner array, bounds and equivalence sweeps
inline constexpr double kEnumHashedNsPerPoint = 250;  // hashed owner map (a table past the caches)
inline constexpr std::int64_t kEnumDenseBytesPerCell = 4;

// Everything a check may look at.
struct CheckInput {
  Layout layout;
  std::string text;                          // the layout as written (for messages)
  std::optional<std::vector<std::int64_t>> shape;  // logical buffer shape
  std::string dtype;                         // TVM dtype name, empty if unknown
  int elem_bits = 0;                         // 0 if unknown
  Scope scope = Scope::kUnknown;
  std::optional<std::int64_t> alloc_cols;    // TMEM allocation, 32-bit columns
  std::int64_t tmem_col_offset = 0;          // TMEM: 32-bit column of the layout's TCol 0 inside the allocation (a view)
  std::int64_t tmem_lane_offset = 0;         // TMEM: lane of the layout's TLane 0 (placement lane plus view lanes)
  std::optional<std::int64_t> alloc_elems;   // memory allocation on m, in elements
  MachineLimits machine;
  const hw::Target* target = nullptr;  // the full target description, for simulating instructions
  EngineLimits limits;
  Engine engine = Engine::kAuto;  // which engine decides; a forced engine that cannot -> undecided
  bool cross_check = false;       // run every applicable engine; disagreement -> fail naming them
  std::optional<Layout> other;    // layout.equivalent: the layout to compare with (n/a when absent)
  std::string other_text;         // `other` as written (for messages)
  // An access to this buffer, for the checks that need one (tmem.partition, tmem.datapath,
  // smem.bank-conflicts): the register fragment layout of the threads that read or write the
  // buffer, over the same logical elements (thread axes + m = register slot in elements).
  std::optional<Layout> access;
  std::string access_text;
  int access_bytes = 0;            // shared memory: bytes per thread per instruction (4, 8, 16)
  std::optional<int> row_imm;      // tmem: the emitted PTX row immediate to check instead of the derived one
  bool software_swizzle = false;   // the layout's swizzle is thread address arithmetic: swizzle.legal is n/a
  // layout.injective: the buffer is a read-only broadcast view (CLI --allow-broadcast, a model
  // buffer's "broadcast": true): every stride-0 shard iter counts as a declared broadcast, as if
  // it had been made by broadcast() (Iter::broadcast). Without it only iters the factories
  // marked are declared, and any other stride-0 shard iter makes layout.injective fail.
  bool allow_broadcast = false;
};

struct CheckResult {
  std::string id;
  Status status = Status::kPass;
  Severity severity = Severity::kError;  // of a fail; the check's default unless the finding says otherwise
  std::string message;
  nlohmann::json witness;  // null when there is nothing to show
  std::string engine;      // "enum", "gf2", "z3", "interval", "structural", "gf2+enum+z3" (cross-check)...
  double seconds = 0;
};

struct CheckInfo {
  std::string_view id;
  std::string_view description;     // one line
  std::string_view witness_format;  // one line
  Severity severity = Severity::kError;  // default severity of a fail
  // nullptr for checks performed by the front end (layout.syntax) rather than on a CheckInput.
  std::function<CheckResult(const CheckInput&)> run;
};

// The registry, in report order.
const std::vector<CheckInfo>& checks();
const CheckInfo* find_check(std::string_view id);

// Runs every registered check that has a `run` function. A check that throws InputError is
// turned into status kFail for "layout.well-formed" problems found while checking. A check that
// runs out of the budget (BudgetExceeded, std::bad_alloc, std::length_error) is kUndecided with
// a message naming the budget and the check ("time limit of 60 s reached in layout.injective
// (enumeration, 1.2e9 of 4.0e9 points)"); the checks after it still run (those that need the
// budget end the same way at once).
std::vector<CheckResult> run_all(const CheckInput& in);

// The undecided result of check `id` for a budget that ran out.
CheckResult budget_result(std::string_view id, const BudgetExceeded& e);

// Logical coordinate of flat element index `flat`: row-major over `shape` when given,
// else [flat].
std::vector<std::int64_t> logical_coord(std::int64_t flat, const std::optional<std::vector<std::int64_t>>& shape);

}  // namespace tirx::prove
