// The kernel-check context and runner (kernel_check.hpp).
#include "tirx_verify/kernel/kernel_check.hpp"

#include <chrono>
#include <new>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/notation.hpp"

namespace tirx::kernel {

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
    // A view starts at its offsets inside its base, accumulated along the chain.
    for (const BufferModel* v = &bm; v->view_of; v = m.find_buffer(*v->view_of)) {
      rb.smem_base_bytes += v->view_offset_bytes;
      rb.tmem_col += v->view_col;
      rb.tmem_lane += v->view_lane;
    }
  }
  return ctx;
}

const KernelCheckInfo* find_kernel_check(std::string_view id) {
  for (const auto& c : kernel_checks())
    if (c.id == id) return &c;
  return nullptr;
}

namespace {

// The undecided finding of kernel check `id` for a budget that ran out (as prove::budget_result).
KernelFinding budget_finding(std::string_view id, const KernelContext& ctx, const BudgetExceeded& e) {
  KernelFinding f;
  f.check = std::string(id);
  f.status = prove::Status::kUndecided;
  f.subject_kind = "kernel";
  f.subject = ctx.model->kernel;
  f.message = e.describe(id);
  f.witness = {{"budget", e.kind() == BudgetKind::kTime ? "time" : "memory"}, {"limit", e.limit()}, {"where", e.where()}};
  return f;
}

}  // namespace

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
    } catch (const BudgetExceeded& e) {  // the command's budget ran out inside the check
      fs.push_back(budget_finding(c.id, ctx, e));
    } catch (const std::bad_alloc&) {
      fs.push_back(budget_finding(c.id, ctx, out_of_memory(ctx.limits.budget, c.id)));
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
