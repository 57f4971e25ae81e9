// Proof engines: cost per layout and the enumeration / Z3 crossover (numbers: docs/performance.md).
//   BM_Gf2Injective/<case>   — gf2::injective on every power-of-two case of tests/unit/prove_layouts.hpp
//                              (target: < 10 us per layout)
//   BM_Z3Injective/<case>    — z3engine::injective on every case (target: median < 50 ms)
//   BM_EnumInjective/<case>  — enumerate::injective on every case
//   BM_EnumPadded/<rows>     — enumeration of S[(r,r):(r+8,1)] (padded rows, not power-of-two) ...
//   BM_Z3Padded/<rows>       — ... and Z3 on the same family: where the curves cross is the crossover
//   BM_Large*                — one 2^22-point layout proved by Z3 (padded) and by gf2 (dense), next
//                              to enumeration of the same layouts
// Run: build/tests/bench/bench_prove [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include "../unit/prove_layouts.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/equivalent.hpp"
#include "tirx_verify/prove/gf2.hpp"
#include "tirx_verify/prove/z3_engine.hpp"

namespace {
using namespace tirx;
using namespace tirx::prove;

TileLayout padded(std::int64_t rows) { return TileLayout({Iter{rows, rows + 8, AxisId::m}, Iter{rows, 1, AxisId::m}}); }

void BM_EnumPadded(benchmark::State& st) {
  const Layout l = padded(st.range(0));
  for (auto _ : st) benchmark::DoNotOptimize(enumerate::injective(l, Scope::kShared, EngineLimits{}).status);
  st.counters["points"] = static_cast<double>(st.range(0) * st.range(0));
}
BENCHMARK(BM_EnumPadded)->RangeMultiplier(2)->Range(32, 4096)->Unit(benchmark::kMillisecond);

void BM_Z3Padded(benchmark::State& st) {
  const Layout l = padded(st.range(0));
  for (auto _ : st) {
    const auto r = z3engine::injective(l, Scope::kShared, EngineLimits{});
    if (r.status != Status::kPass) st.SkipWithError("z3 did not prove the padded layout injective");
  }
  st.counters["points"] = static_cast<double>(st.range(0) * st.range(0));
}
BENCHMARK(BM_Z3Padded)->RangeMultiplier(2)->Range(32, 4096)->Unit(benchmark::kMillisecond);

// 2^22 points: the padded 2048 x 2048 tile (not power-of-two: z3) and the dense one (gf2).
void BM_LargeZ3Padded(benchmark::State& st) {
  const Layout l = padded(2048);
  for (auto _ : st) benchmark::DoNotOptimize(z3engine::injective(l, Scope::kShared, EngineLimits{}).status);
}
BENCHMARK(BM_LargeZ3Padded)->Unit(benchmark::kMillisecond);
void BM_LargeEnumPadded(benchmark::State& st) {
  const Layout l = padded(2048);
  for (auto _ : st) benchmark::DoNotOptimize(enumerate::injective(l, Scope::kShared, EngineLimits{}).status);
}
BENCHMARK(BM_LargeEnumPadded)->Unit(benchmark::kMillisecond);
void BM_LargeGf2Dense(benchmark::State& st) {
  const Layout l = TileLayout({Iter{2048, 2048, AxisId::m}, Iter{2048, 1, AxisId::m}});
  for (auto _ : st) benchmark::DoNotOptimize(gf2::injective(l, Scope::kShared).status);
}
BENCHMARK(BM_LargeGf2Dense)->Unit(benchmark::kMicrosecond);
void BM_LargeEnumDense(benchmark::State& st) {
  const Layout l = TileLayout({Iter{2048, 2048, AxisId::m}, Iter{2048, 1, AxisId::m}});
  for (auto _ : st) benchmark::DoNotOptimize(enumerate::injective(l, Scope::kShared, EngineLimits{}).status);
}
BENCHMARK(BM_LargeEnumDense)->Unit(benchmark::kMillisecond);

// Equivalence: canonical form of the 128B fp16 (64,256) operand against its atom-tiled form.
void BM_Gf2Equivalent(benchmark::State& st) {
  const Layout a = ComposeLayout(SwizzleSpec{3, 3, 3, true},
                                 TileLayout({Iter{64, 64, AxisId::m}, Iter{4, 4096, AxisId::m}, Iter{64, 1, AxisId::m}}));
  const Layout b = ComposeLayout(SwizzleSpec{3, 3, 3, true},
                                 TileLayout({Iter{8, 512, AxisId::m}, Iter{8, 64, AxisId::m}, Iter{4, 4096, AxisId::m},
                                             Iter{8, 8, AxisId::m}, Iter{8, 1, AxisId::m}}));
  for (auto _ : st) benchmark::DoNotOptimize(gf2::equivalent(a, b).status);
}
BENCHMARK(BM_Gf2Equivalent)->Unit(benchmark::kMicrosecond);

void register_cases() {
  for (const auto& c : tirx::test::prove_cases()) {
    if (c.gf2)
      benchmark::RegisterBenchmark(("BM_Gf2Injective/" + c.name).c_str(), [c](benchmark::State& st) {
        for (auto _ : st) benchmark::DoNotOptimize(gf2::injective(c.layout, c.scope).status);
      })->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_Z3Injective/" + c.name).c_str(), [c](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize(z3engine::injective(c.layout, c.scope, EngineLimits{}).status);
    })->Unit(benchmark::kMillisecond)->MinTime(0.2);
    benchmark::RegisterBenchmark(("BM_EnumInjective/" + c.name).c_str(), [c](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize(enumerate::injective(c.layout, c.scope, EngineLimits{}).status);
    })->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_cases();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
