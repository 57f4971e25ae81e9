// libFuzzer target: the kernel-model loader (kernel::parse_model) and verification of every
// buffer of a model that loads (kernel::verify_buffer on the model's target, small limits).
//
//   any text --parse_model--> InputError (model.syntax / model.schema / kernel.graph ...) with a
//                             check id, or a KernelModel whose every buffer verifies without
//                             crashing (a buffer's bad layout is reported in its BufferReport)
//
// Built by -DTIRX_BUILD_FUZZ=ON with clang; compiled with replay_main.cpp into
// fuzz_model_replay for ctest (seed corpus + tests/fuzz/regressions/model).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/kernel/verify.hpp"

namespace {

using namespace tirx;

const hw::Target& target_for(const std::string& name) {
  static const hw::Target sm90 = hw::load_target("sm_90a"), sm100 = hw::load_target("sm_100a");
  return name == "sm_90a" ? sm90 : sm100;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return 0;  // a model file; campaigns cap inputs with -max_len
  const std::string text(reinterpret_cast<const char*>(data), size);
  kernel::KernelModel model;
  try {
    model = kernel::parse_model(text, "fuzz.json");
  } catch (const InputError& e) {
    tirx::fuzz::check_error(e, text);
    return 0;
  }
  kernel::VerifyOptions opt;
  opt.limits.max_enumeration_points = 4096;
  opt.limits.max_dense_cells = 1 << 16;
  opt.limits.enum_crossover_points = INT64_MAX;  // gf2 / enumeration only (Z3: property campaign)
  opt.limits.z3_timeout_ms = 50;
  for (const auto& b : model.buffers) {
    try {
      const kernel::BufferReport r = kernel::verify_buffer(b, model, target_for(model.target), opt);
      if (r.error) tirx::fuzz::check_error(*r.error, b.layout);
    } catch (const InputError& e) {
      tirx::fuzz::check_error(e, text);
    }
  }
  return 0;
}
