// tirx_verify/prove/audit.hpp — TVM's layout factories swept over their legal arguments.
//
// A factory such as sf_tmem_layout(rows, SF_K, sf_per_mma, sf_reuse, pipe_depth) is called
// by kernels with arguments from a large legal range, and nothing checks what it returns for
// each of them. The audit enumerates each factory's argument space as TVM documents and
// validates it (docstrings and raises in python/tvm/tirx/layout.py,
// python/tvm/backend/cuda/tile_primitive/{tma_utils.py, gemm_async/tcgen05.py} at TVM
// 5d4dc872), builds each result through the notation (the exact text a user would type to
// `tirx-verify check`), and runs every registered check on it with the buffer the factory
// implies:
//
//   factory                  scope   dtype               allocation                   access checked
//   sf_tmem_layout           tmem    float8_e8m0fnu      TVM's pool: TCol span in     -
//                                                        32-bit columns, rounded to
//                                                        a legal tcgen05.alloc
//   sf_smem_layout           shared  float8_e8m0fnu      the buffer shape's bytes     -
//   tmem_datapath_layout     tmem    float32 / float16   as sf_tmem_layout            -
//   tmem_mma_operand_layout  tmem    float32 / bfloat16  as sf_tmem_layout            -
//   tcgen05_atom_layout      local   float32 / float16   -                            the fragment against the
//                                                                                     TMEM data path it reads
//                                                                                     (tmem.partition, tmem.datapath)
//   wg_local_layout          local   float32             -                            -
//   mma_shared_layout        shared  4 .. 32-bit types   the shape's elements         -
//
// Every failing (or undecided) check of an argument set is grouped by cause: the check id and
// its message with every number replaced by '#' and every JSON object (a cell) by "{...}"
// (for layout.injective, plus which logical
// dimensions the two colliding elements differ in), so that the 2,000 argument sets one
// construction mistake breaks form one group. Each group keeps the smallest argument set
// that shows it (smallest sum of the numeric arguments, then lexicographic), its witness and
// the `tirx-verify check ...` command that reproduces it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {

// One layout checked for an argument set, with the buffer it describes.
struct AuditSubject {
  std::string role;                    // "buffer", "fragment", "fragment vs tmem_datapath_layout(...)"
  std::optional<CheckInput> input;     // absent when the factory rejected the arguments
  std::string rejected;                // the InputError message then ("[layout.well-formed] ...")
  std::string command;                 // the `tirx-verify check ...` command that reproduces it
};

// One argument set of a factory.
struct AuditCase {
  std::string call;                    // "sf_tmem_layout(128, 8, 4, pipe_depth=2)"
  std::vector<std::int64_t> size;      // its numeric arguments: the "smallest" order key
  std::vector<AuditSubject> subjects;
};

// What every case needs from the caller.
struct AuditContext {
  const hw::Target* target = nullptr;  // required: TMEM geometry, machine limits, simulation
  EngineLimits limits;                 // engine limits and the command's budget
};

struct AuditFactory {
  std::string_view name;
  std::string_view space;  // the argument space in words, with its TVM source
  // Calls `emit` once per argument set, in a fixed order. Parsing errors of the factory
  // (arguments it rejects) become subjects with `rejected` set, never exceptions.
  std::function<void(const AuditContext&, const std::function<void(AuditCase)>&)> cases;
};

// The audited factories, in report order.
const std::vector<AuditFactory>& audit_factories();
const AuditFactory* find_audit_factory(std::string_view name);

// Failing results of one cause.
struct AuditGroup {
  std::string check;          // check id ("layout.injective"; "layout.well-formed" for a rejection)
  Status status = Status::kFail;  // kFail or kUndecided
  Severity severity = Severity::kError;
  std::string cause;          // the message with numbers as '#' (+ "; differing dims ..." for collisions)
  std::int64_t count = 0;     // argument sets in the group
  std::string smallest;       // the smallest call that shows it
  std::vector<std::int64_t> smallest_size;
  std::string role;           // which subject of the call failed
  std::string command;        // reproduces the smallest case
  CheckResult result;         // of the smallest case: message and witness
  std::vector<std::string> examples;  // the first calls of the group in sweep order (at most 8)
};

struct AuditFactoryReport {
  std::string name;
  std::string space;
  std::int64_t argument_sets = 0;   // checked
  std::int64_t subjects = 0;        // layouts checked (an argument set may give several)
  std::int64_t failing_sets = 0;    // argument sets with at least one fail
  std::int64_t undecided_sets = 0;  // ... with an undecided check and no fail
  std::vector<AuditGroup> groups;   // fail groups first (in order of first appearance), then undecided
  std::string stopped;              // non-empty when the budget ran out: the message (counts are partial)
};

// Sweeps the named factories (all when `names` is empty). Throws InputError("cli.usage") for an
// unknown name. A budget that runs out stops the sweep of that factory and of every later one,
// with `stopped` set (BudgetExceeded is not thrown).
std::vector<AuditFactoryReport> run_audit(const AuditContext& ctx, const std::vector<std::string>& names);

// The grouping key of one failing result (exposed for tests): the message with every run of
// digits replaced by '#' and each top-level {...} object by "{...}"; for layout.injective with a witness naming two logical elements of
// equal rank, "; differing dims i,j" is appended.
std::string audit_cause(const CheckResult& r);

}  // namespace tirx::prove
