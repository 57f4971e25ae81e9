// Constructors of kernel findings shared by the checks (checks.hpp).
#include "checks.hpp"

namespace tirx::kernel::checks {

KernelFinding op_finding(const KernelContext& ctx, std::size_t i, prove::Status status, std::string message) {
  KernelFinding f;
  f.status = status;
  f.subject_kind = "op";
  f.subject = ctx.op(i).name;
  f.message = std::move(message);
  return f;
}

KernelFinding buffer_finding(const KernelContext& ctx, std::size_t j, prove::Status status, std::string message) {
  KernelFinding f;
  f.status = status;
  f.subject_kind = "buffer";
  f.subject = ctx.model->buffers[j].name;
  f.message = std::move(message);
  return f;
}

KernelFinding kernel_finding(const KernelContext& ctx, prove::Status status, std::string message) {
  KernelFinding f;
  f.status = status;
  f.subject_kind = "kernel";
  f.subject = ctx.model->kernel;
  f.message = std::move(message);
  return f;
}

}  // namespace tirx::kernel::checks
