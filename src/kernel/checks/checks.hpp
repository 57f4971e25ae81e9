// The kernel checks (internal to src/kernel): one function per check, one file per function,
// listed in registry.cpp. Each returns one KernelFinding per subject it applies to (an op, a
// buffer or the kernel) and none for subjects it does not apply to.
#pragma once

#include <vector>

#include "tirx_verify/kernel/images.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"

namespace tirx::kernel::checks {

std::vector<KernelFinding> overlap(const KernelContext& ctx);  // overlap.cpp

// A finding about op `i` (subject_kind "op").
KernelFinding op_finding(const KernelContext& ctx, std::size_t i, prove::Status status, std::string message);
// A finding about buffer `j` (subject_kind "buffer").
KernelFinding buffer_finding(const KernelContext& ctx, std::size_t j, prove::Status status, std::string message);
// A finding about the whole kernel.
KernelFinding kernel_finding(const KernelContext& ctx, prove::Status status, std::string message);

}  // namespace tirx::kernel::checks
