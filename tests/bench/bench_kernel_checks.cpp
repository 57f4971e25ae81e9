// Each kernel check alone over the corpus (models/kernels, plus the model files or folders in
// $TIRX_BENCH_MODELS, ':'-separated): loading and the kernel context are outside the timed loop,
// so the CPU time is the check's own. The whole-corpus target (issue 10) is < 0.2 s for
// everything; docs/performance.md has the numbers.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <sstream>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/layout/source_dir.hpp"

namespace {

using namespace tirx::kernel;

struct Corpus {
  std::vector<KernelModel> models;
  std::vector<KernelGraph> graphs;
  std::vector<KernelContext> contexts;
  tirx::hw::Target target = tirx::hw::load_target("sm_100a");
};

const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus c;
    std::vector<std::filesystem::path> paths = {std::filesystem::path(tirx::source_dir()) / "models/kernels"};
    if (const char* extra = std::getenv("TIRX_BENCH_MODELS")) {
      std::stringstream ss(extra);
      for (std::string p; std::getline(ss, p, ':');)
        if (!p.empty()) paths.emplace_back(p);
    }
    for (const auto& f : collect_model_files(paths)) c.models.push_back(load_model(f));
    c.graphs.reserve(c.models.size());
    c.contexts.reserve(c.models.size());
    for (const auto& m : c.models) {
      c.graphs.push_back(build_graph(m));
      c.contexts.push_back(make_context(m, c.graphs.back(), c.target, {}));
    }
    return c;
  }();
  return c;
}

void BM_KernelCheck(benchmark::State& st, std::string id) {
  const Corpus& c = corpus();
  const KernelCheckInfo* check = find_kernel_check(id);
  std::int64_t findings = 0;
  for (auto _ : st) {
    findings = 0;
    for (const auto& ctx : c.contexts) {
      auto fs = check->run(ctx);
      findings += static_cast<std::int64_t>(fs.size());
      benchmark::DoNotOptimize(fs);
    }
  }
  st.counters["findings"] = static_cast<double>(findings);
  st.counters["kernels"] = static_cast<double>(c.contexts.size());
}

const bool registered = [] {
  for (const auto& k : kernel_checks())
    benchmark::RegisterBenchmark(("BM_KernelCheck/" + std::string(k.id)).c_str(), BM_KernelCheck, std::string(k.id))
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
