// The kernel-check context and runner (kernel_check.hpp).
#include "tirx_verify/kernel/kernel_check.hpp"

#include <chrono>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/notation.hpp"

namespace tirx::kernel {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "?";
}

const ResolvedBuffer* KernelContext::buffer(std::string_view name) const {
  for (const auto& b : buffers)
    if (b.model->name == name) return &b;
  return nullptr;
}

KernelContext make_context(const KernelModel& m, const KernelGraph& g, const hw::Target& target,
                           const prove::EngineLimits& limits) {
  KernelContext ctx;
  ctx.model = &m;
  ctx.graph = &g;
  ctx.target = &target;
  ctx.limits = limits;
  Env env;
  for (const auto& [name, p] : m.params) env[name] = p.value;
  ctx.buffers.resize(m.buffers.size());
  for (std::size_t j = 0; j < m.buffers.size(); ++j) {
    const BufferModel& bm = m.buffers[j];
    ResolvedBuffer& rb = ctx.buffers[j];
    rb.model = &bm;
    rb.index = j;
    rb.elem_bits = model_dtype_bits(bm.dtype);
    try {
      rb.scope = prove::parse_scope(bm.scope);
      Layout l = parse_layout(bm.layout, env);
      l.validate();
      rb.layout = std::move(l);
    } catch (const InputError& e) {
      rb.layout_error = fmt::format("[{}] {}", e.check_id(), e.message());
    }
    rb.root = g.storage_root(j);
    const BufferModel& root = m.buffers[rb.root];
    if (root.placement) {
      rb.placed = true;
      rb.smem_base_bytes = root.placement->offset_bytes.value_or(0);
      rb.smem_align_bytes = root.placement->align_bytes.value_or(0);
      rb.tmem_col = root.placement->col;
      rb.tmem_lane = root.placement->lane;
    }
  }
  return ctx;
}

const KernelCheckInfo* find_kernel_check(std::string_view id) {
  for (const auto& c : kernel_checks())
    if (c.id == id) return &c;
  return nullptr;
}

std::vector<KernelFinding> run_kernel_checks(const KernelContext& ctx) {
  std::vector<KernelFinding> out;
  for (const auto& c : kernel_checks()) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<KernelFinding> fs;
    try {
      fs = c.run(ctx);
    } catch (const InputError& e) {
      KernelFinding f;
      f.check = std::string(c.id);
      f.status = prove::Status::kFail;
      f.severity = Severity::kError;
      f.subject_kind = "kernel";
      f.subject = ctx.model->kernel;
      f.message = fmt::format("[{}] {}", e.check_id(), e.message());
      fs.push_back(std::move(f));
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (auto& f : fs) {
      if (f.check.empty()) f.check = std::string(c.id);
      if (f.seconds == 0) f.seconds = secs / static_cast<double>(fs.size());
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace tirx::kernel
