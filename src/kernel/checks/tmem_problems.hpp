// Internal to src/kernel/checks: what the TMEM checks (kernel.tmem-datapath, kernel.sf-layout)
// find about one op, gathered into that op's single finding.
//
// A check collects every problem of an op (a lane field naming another sub-partition is a
// warning, wrong data an error), then reports one finding: pass when there is none; else fail
// with the worst severity, the first problem of that severity as message, witness and fix, and
// the others listed in witness.also.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checks.hpp"
#include "tirx_verify/kernel/tmem_access.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::checks {

struct Problem {
  Severity severity = Severity::kError;
  std::string message;
  nlohmann::json witness;
  std::string fix;
};

// The op's finding (header). `related`: the buffers (and ops) involved.
KernelFinding problems_finding(const KernelContext& ctx, std::size_t op, std::vector<Problem> problems,
                               const std::string& pass_message, std::vector<std::string> related);

// The finding of an op whose check threw: kernel.limit -> undecided, kernel.layout (a layout
// that did not parse) -> n/a, anything else -> fail (error) naming the error id.
KernelFinding exception_finding(const KernelContext& ctx, std::size_t op, const InputError& e,
                                std::vector<std::string> related);

// The TMEM columns a kernel's tcgen05 instructions may use, from the allocation base: the sum
// of its tcgen05.alloc ops when it has any, else the buffer's (or its storage root's)
// alloc_cols; nullopt when neither is known. `why` says which.
std::optional<std::int64_t> allocated_columns(const KernelContext& ctx, ImageCache& cache, const ResolvedBuffer& b,
                                              std::string& why);

}  // namespace tirx::kernel::checks
