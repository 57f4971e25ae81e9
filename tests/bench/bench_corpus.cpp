// The main job's cost: load every model under models/kernels and run every check on every
// buffer (what `tirx-verify run` does, minus printing). Target (issue 2): < 0.5 s.
#include <benchmark/benchmark.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/source_dir.hpp"

namespace {

void BM_CorpusRun(benchmark::State& st) {
  using namespace tirx::kernel;
  const auto files = collect_model_files({std::filesystem::path(tirx::source_dir()) / "models/kernels"});
  std::vector<KernelModel> models;
  for (const auto& f : files) models.push_back(load_model(f));
  std::int64_t buffers = 0;
  for (auto _ : st) {
    buffers = 0;
    for (const auto& m : models) {
      auto r = verify_kernel(m);
      buffers += static_cast<std::int64_t>(r.buffers.size());
      benchmark::DoNotOptimize(r);
    }
  }
  st.counters["buffers"] = static_cast<double>(buffers);
  st.counters["kernels"] = static_cast<double>(models.size());
}
BENCHMARK(BM_CorpusRun)->Unit(benchmark::kMillisecond);

// One kernel check over the whole corpus (models, graphs and contexts built once).
void BM_KernelCheck(benchmark::State& st, const char* id) {
  using namespace tirx::kernel;
  const auto files = collect_model_files({std::filesystem::path(tirx::source_dir()) / "models/kernels"});
  std::vector<std::unique_ptr<KernelModel>> models;
  std::vector<std::unique_ptr<KernelGraph>> graphs;
  std::vector<std::unique_ptr<tirx::hw::Target>> targets;
  std::vector<KernelContext> ctxs;
  for (const auto& f : files) {
    models.push_back(std::make_unique<KernelModel>(load_model(f)));
    graphs.push_back(std::make_unique<KernelGraph>(build_graph(*models.back())));
    targets.push_back(std::make_unique<tirx::hw::Target>(tirx::hw::load_target(models.back()->target)));
    ctxs.push_back(make_context(*models.back(), *graphs.back(), *targets.back(), {}));
  }
  const KernelCheckInfo* check = find_kernel_check(id);
  std::int64_t findings = 0;
  for (auto _ : st) {
    findings = 0;
    for (const auto& ctx : ctxs) findings += static_cast<std::int64_t>(check->run(ctx).size());
  }
  st.counters["findings"] = static_cast<double>(findings);
}
BENCHMARK_CAPTURE(BM_KernelCheck, tma_layout, "kernel.tma-layout")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KernelCheck, mma_descriptor, "kernel.mma-descriptor")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
