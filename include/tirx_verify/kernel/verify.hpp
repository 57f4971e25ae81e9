// tirx_verify/kernel/verify.hpp — running the checks over every buffer of a kernel model.
//
// For each buffer: parse its layout (layout.syntax / layout.well-formed errors become a failed
// result for that buffer, never an abort), build a prove::CheckInput from the buffer's scope,
// shape, dtype and allocation plus the target's machine limits, and run every registered check.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::hw {
struct Target;
}  // namespace tirx::hw

namespace tirx::kernel {

struct BufferReport {
  const BufferModel* buffer = nullptr;
  std::string resolved;                       // the layout printed in builder form
  std::vector<prove::CheckResult> results;
  std::optional<InputError> error;            // the layout did not parse / was not valid
};

struct KernelReport {
  const KernelModel* model = nullptr;
  std::vector<BufferReport> buffers;
  std::vector<KernelFinding> findings;  // the kernel checks (kernel_check.hpp), in registry order
};


struct VerifyOptions {
  prove::EngineLimits limits;
};

// Checks one buffer on the given target.
BufferReport verify_buffer(const BufferModel& b, const KernelModel& k, const hw::Target& target,
                           const VerifyOptions& opt = {});
// Checks every buffer of a model, then runs the kernel checks over its ops and buffers; the
// target is loaded by name from models/targets (once per process). Safe to call from several
// threads at once on different models (`run --jobs`); opt.limits.budget may be shared.
KernelReport verify_kernel(const KernelModel& k, const VerifyOptions& opt = {});

// An allocation of `cols` 32-bit TMEM columns must be one tcgen05.alloc accepts on the target
// (a power of two in [alloc_min_columns, alloc_max_columns], PTX ISA 9.1 §9.7.16.7.1; decided
// by the simulator's allocator). Throws InputError("tmem.alloc") otherwise, and
// InputError("target.feature") for a target without TMEM: such an allocation is bad input, not
// a property of the layout (exit code 2).
void check_alloc_cols(const hw::Target& t, std::int64_t cols);

// Element size in bits for a TVM dtype name ("float16" -> 16); 0 when unknown.
int dtype_bits(const std::string& dtype);

}  // namespace tirx::kernel
