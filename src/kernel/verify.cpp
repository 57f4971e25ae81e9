#include "tirx_verify/kernel/verify.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/buffer_input.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/hw/tmem_alloc.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/notation.hpp"

namespace tirx::kernel {

int dtype_bits(const std::string& dtype) {
  if (dtype.empty()) return 0;
  try {
    return DType::parse(dtype).bits;
  } catch (const InputError&) {
    return 0;
  }
}

void check_alloc_cols(const hw::Target& t, std::int64_t cols) {
  hw::TmemAllocator alloc(t);
  if (cols < 1 || cols > std::numeric_limits<int>::max())
    throw InputError("tmem.alloc", fmt::format("tcgen05.alloc of {} columns: nCols must be a power of two in [{}, {}]",
                                               cols, t.tmem->alloc_min_columns, t.tmem->alloc_max_columns));
  alloc.alloc(static_cast<int>(cols));
}

prove::CheckInput buffer_check_input(const BufferModel& b, const KernelModel& k, const hw::Target& target,
                                     const prove::EngineLimits& limits, std::string* resolved) {
  Env env;
  for (const auto& [name, p] : k.params) env[name] = p.value;
  prove::CheckInput in;
  in.layout = parse_layout(b.layout, env);
  in.text = b.layout;
  if (resolved) *resolved = print_layout(in.layout, PrintStyle::kBuilder);
  if (!b.shape.empty()) in.shape = b.shape;
  in.dtype = b.dtype;
  in.elem_bits = dtype_bits(b.dtype);
  in.scope = prove::parse_scope(b.scope);
  in.alloc_cols = b.alloc_cols;
  // A view without its own allocation lives in its storage root's, from its column offset.
  const BufferModel* root = &b;
  for (const BufferModel* v = &b; v->view_of;) {
    in.tmem_col_offset += v->view_col;
    in.tmem_lane_offset += v->view_lane;
    v = k.find_buffer(*v->view_of);
    if (!v) break;
    root = v;
    if (!in.alloc_cols) in.alloc_cols = v->alloc_cols;
  }
  if (in.scope == prove::Scope::kTmem && root->placement) in.tmem_lane_offset += root->placement->lane;
  in.alloc_elems = b.alloc_elems;
  in.software_swizzle = b.software_swizzle;
  in.allow_broadcast = b.broadcast;  // a declared read-only broadcast view: its stride-0 iters pass layout.injective
  if (b.alloc_cols) {
    try {
      check_alloc_cols(target, *b.alloc_cols);
    } catch (const InputError& e) {
      const std::string field = fmt::format("\"alloc_cols\": {}", *b.alloc_cols);
      throw InputError(e.check_id(), fmt::format("buffer '{}': {}", b.name, e.message()), field,
                       field.find(':') + 2, e.note());
    }
  }
  in.machine = prove::machine_limits(target);
  in.target = &target;
  in.limits = limits;
  return in;
}

BufferReport verify_buffer(const BufferModel& b, const KernelModel& k, const hw::Target& target,
                           const VerifyOptions& opt) {
  BufferReport r;
  r.buffer = &b;
  try {
    const prove::CheckInput in = buffer_check_input(b, k, target, opt.limits, &r.resolved);
    r.results = prove::run_all(in);
  } catch (const InputError& e) {
    r.error = e.located(b.layout, std::nullopt);
  }
  return r;
}

KernelReport verify_kernel(const KernelModel& k, const VerifyOptions& opt) {
  // Targets are loaded once per process; `run --jobs` calls this from several threads.
  static std::mutex mu;
  static std::map<std::string, hw::Target> cache;
  const hw::Target* target = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(k.target);
    if (it == cache.end()) it = cache.emplace(k.target, hw::load_target(k.target)).first;
    target = &it->second;  // std::map never moves its elements
  }
  KernelReport kr;
  kr.model = &k;
  for (const auto& b : k.buffers) kr.buffers.push_back(verify_buffer(b, k, *target, opt));
  if (k.format >= 2) {
    const KernelGraph g = build_graph(k);
    const KernelContext ctx = make_context(k, g, *target, opt.limits);
    kr.findings = run_kernel_checks(ctx);
  }
  return kr;
}

}  // namespace tirx::kernel
