// The main job's cost: load every model under models/kernels and run every check on every
// buffer (what `tirx-verify run` does, minus printing). Target (issue 2): < 0.5 s.
#include <benchmark/benchmark.h>

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

}  // namespace

BENCHMARK_MAIN();
