// The kernel checks (internal to src/kernel): one function per check, one file per function,
// listed in registry.cpp. Each returns one KernelFinding per subject it applies to (an op, a
// buffer or the kernel) and none for subjects it does not apply to.
#pragma once

#include <vector>

#include "tirx_verify/kernel/images.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"

namespace tirx::kernel::checks {

std::vector<KernelFinding> overlap(const KernelContext& ctx);         // overlap.cpp
std::vector<KernelFinding> tma_layout(const KernelContext& ctx);      // tma_layout.cpp
std::vector<KernelFinding> mma_descriptor(const KernelContext& ctx);  // mma_descriptor.cpp
std::vector<KernelFinding> tmem_datapath(const KernelContext& ctx);   // tmem_datapath.cpp
std::vector<KernelFinding> sf_layout(const KernelContext& ctx);       // sf_layout.cpp
std::vector<KernelFinding> coverage(const KernelContext& ctx);  // coverage.cpp
std::vector<KernelFinding> bank_conflicts(const KernelContext& ctx);  // bank_conflicts.cpp
std::vector<KernelFinding> fragment(const KernelContext& ctx);  // fragment.cpp

// A finding about op `i` (subject_kind "op").
KernelFinding op_finding(const KernelContext& ctx, std::size_t i, prove::Status status, std::string message);
// A finding about buffer `j` (subject_kind "buffer").
KernelFinding buffer_finding(const KernelContext& ctx, std::size_t j, prove::Status status, std::string message);
// A finding about the whole kernel.
KernelFinding kernel_finding(const KernelContext& ctx, prove::Status status, std::string message);

}  // namespace tirx::kernel::checks
