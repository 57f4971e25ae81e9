// The main job with the kernel checks (issue 10): load every model under models/kernels, build
// its graph and context, run every buffer check and every kernel check — what
// `tirx-verify run models/kernels` does, minus printing. Goal: < 0.2 s wall for the corpus on the
// 2-core development machine. Also each kernel check alone over the prebuilt contexts, so a slow
// check shows by name (docs/performance.md).
#include <benchmark/benchmark.h>

#include <map>
#include <memory>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/source_dir.hpp"

namespace {

using namespace tirx::kernel;

std::vector<std::filesystem::path> corpus_files() {
  return collect_model_files({std::filesystem::path(tirx::source_dir()) / "models/kernels"});
}

// Load + graph + context + every buffer check + every kernel check, per iteration.
void BM_CorpusLoadAndVerify(benchmark::State& st) {
  const auto files = corpus_files();
  std::int64_t ops = 0, findings = 0;
  for (auto _ : st) {
    ops = findings = 0;
    for (const auto& f : files) {
      const KernelModel m = load_model(f);
      const KernelReport r = verify_kernel(m);
      ops += static_cast<std::int64_t>(m.ops.size());
      findings += static_cast<std::int64_t>(r.findings.size());
      benchmark::DoNotOptimize(r);
    }
  }
  st.counters["kernels"] = static_cast<double>(files.size());
  st.counters["ops"] = static_cast<double>(ops);
  st.counters["findings"] = static_cast<double>(findings);
}
BENCHMARK(BM_CorpusLoadAndVerify)->Unit(benchmark::kMillisecond)->UseRealTime();

// Prebuilt models, graphs and contexts, shared by the per-check benchmarks.
struct Prebuilt {
  std::vector<std::unique_ptr<KernelModel>> models;
  std::vector<std::unique_ptr<KernelGraph>> graphs;
  std::vector<KernelContext> contexts;
  std::map<std::string, tirx::hw::Target> targets;
};

const Prebuilt& prebuilt() {
  static const Prebuilt p = [] {
    Prebuilt b;
    for (const auto& f : corpus_files()) {
      auto m = std::make_unique<KernelModel>(load_model(f));
      if (m->format < 2) continue;
      auto it = b.targets.find(m->target);
      if (it == b.targets.end()) it = b.targets.emplace(m->target, tirx::hw::load_target(m->target)).first;
      auto g = std::make_unique<KernelGraph>(build_graph(*m));
      b.contexts.push_back(make_context(*m, *g, it->second, {}));
      b.models.push_back(std::move(m));
      b.graphs.push_back(std::move(g));
    }
    return b;
  }();
  return p;
}

// One kernel check over every format-2 model of the corpus.
void BM_KernelCheck(benchmark::State& st, std::string id) {
  const Prebuilt& p = prebuilt();
  const KernelCheckInfo* c = find_kernel_check(id);
  if (!c) {
    st.SkipWithError(("no kernel check " + id).c_str());
    return;
  }
  std::int64_t n = 0;
  for (auto _ : st) {
    n = 0;
    for (const auto& ctx : p.contexts) {
      auto fs = c->run(ctx);
      n += static_cast<std::int64_t>(fs.size());
      benchmark::DoNotOptimize(fs);
    }
  }
  st.counters["findings"] = static_cast<double>(n);
}

// Graph + context of every format-2 model (what verify_kernel builds before the checks).
void BM_GraphAndContext(benchmark::State& st) {
  const Prebuilt& p = prebuilt();
  for (auto _ : st)
    for (std::size_t i = 0; i < p.models.size(); ++i) {
      KernelGraph g = build_graph(*p.models[i]);
      KernelContext ctx = make_context(*p.models[i], g, *p.contexts[i].target, {});
      benchmark::DoNotOptimize(ctx);
    }
}
BENCHMARK(BM_GraphAndContext)->Unit(benchmark::kMillisecond);

const int kRegistered = [] {
  for (const auto& c : kernel_checks()) {
    const std::string id(c.id);
    benchmark::RegisterBenchmark(("BM_KernelCheck/" + id).c_str(), BM_KernelCheck, id)
        ->Unit(benchmark::kMillisecond);
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
