#include "tirx_verify/kernel/verify.hpp"

#include <map>

#include "tirx_verify/hw/target.hpp"
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

BufferReport verify_buffer(const BufferModel& b, const KernelModel& k, const hw::Target& target,
                           const VerifyOptions& opt) {
  BufferReport r;
  r.buffer = &b;
  try {
    Env env;
    for (const auto& [name, p] : k.params) env[name] = p.value;
    prove::CheckInput in;
    in.layout = parse_layout(b.layout, env);
    in.text = b.layout;
    r.resolved = print_layout(in.layout, PrintStyle::kBuilder);
    if (!b.shape.empty()) in.shape = b.shape;
    in.dtype = b.dtype;
    in.elem_bits = dtype_bits(b.dtype);
    in.scope = prove::parse_scope(b.scope);
    in.alloc_cols = b.alloc_cols;
    in.alloc_elems = b.alloc_elems;
    in.machine = prove::machine_limits(target);
    in.target = &target;
    in.limits = opt.limits;
    r.results = prove::run_all(in);
  } catch (const InputError& e) {
    r.error = e.located(b.layout, std::nullopt);
  }
  return r;
}

KernelReport verify_kernel(const KernelModel& k, const VerifyOptions& opt) {
  static std::map<std::string, hw::Target> cache;
  auto it = cache.find(k.target);
  if (it == cache.end()) it = cache.emplace(k.target, hw::load_target(k.target)).first;
  KernelReport kr;
  kr.model = &k;
  for (const auto& b : k.buffers) kr.buffers.push_back(verify_buffer(b, k, it->second, opt));
  return kr;
}

}  // namespace tirx::kernel
