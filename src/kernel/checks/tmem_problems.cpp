// One finding per op from the problems a TMEM check found (tmem_problems.hpp).
#include "tmem_problems.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"

namespace tirx::kernel::checks {

KernelFinding problems_finding(const KernelContext& ctx, std::size_t op, std::vector<Problem> problems,
                               const std::string& pass_message, std::vector<std::string> related) {
  if (problems.empty()) {
    KernelFinding f = op_finding(ctx, op, prove::Status::kPass, pass_message);
    f.related = std::move(related);
    return f;
  }
  std::size_t primary = 0;
  for (std::size_t i = 0; i < problems.size(); ++i)
    if (problems[i].severity == Severity::kError) {
      primary = i;
      break;
    }
  Problem& p = problems[primary];
  std::string message = p.message;
  nlohmann::json also = nlohmann::json::array();
  for (std::size_t i = 0; i < problems.size(); ++i)
    if (i != primary) also.push_back({{"severity", severity_name(problems[i].severity)}, {"message", problems[i].message}});
  if (!also.empty()) message += fmt::format(" (and {} more: see witness.also)", also.size());
  KernelFinding f = op_finding(ctx, op, prove::Status::kFail, message);
  f.severity = p.severity;
  f.witness = p.witness.is_null() ? nlohmann::json::object() : p.witness;
  if (!also.empty()) f.witness["also"] = also;
  f.fix = p.fix;
  f.related = std::move(related);
  return f;
}

KernelFinding exception_finding(const KernelContext& ctx, std::size_t i, const InputError& e,
                                std::vector<std::string> related) {
  const std::string id(e.check_id());
  KernelFinding f;
  if (id == "kernel.limit") {
    f = op_finding(ctx, i, prove::Status::kUndecided, e.message());
  } else if (id == "kernel.layout") {
    f = op_finding(ctx, i, prove::Status::kNotApplicable, "not checked: " + e.message());
  } else {
    f = op_finding(ctx, i, prove::Status::kFail, fmt::format("[{}] {}", id, e.message()));
    f.severity = Severity::kError;
    f.witness = {{"error", id}};
  }
  f.related = std::move(related);
  return f;
}

std::optional<std::int64_t> allocated_columns(const KernelContext& ctx, ImageCache& cache, const ResolvedBuffer& b,
                                              std::string& why) {
  if (const auto total = cache.kernel_alloc_columns()) {
    why = "the kernel's tcgen05.alloc";
    return total;
  }
  const BufferModel& own = *b.model;
  const BufferModel& root = ctx.model->buffers[b.root];
  if (own.alloc_cols) {
    why = fmt::format("alloc_cols of '{}'", own.name);
    return *own.alloc_cols;
  }
  if (root.alloc_cols) {
    why = fmt::format("alloc_cols of '{}'", root.name);
    return *root.alloc_cols;
  }
  return std::nullopt;
}

}  // namespace tirx::kernel::checks
