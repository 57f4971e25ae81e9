// Symbolic parameters (prove/symbolic.hpp): one proof for every binding vs sweeping the bindings.
//   BM_Symbolic/<case>  — run_symbolic (well-formed + injective + bounds) for the whole range
//   BM_Sweep/<case>     — the concrete checks (run_all) at every binding of the same range,
//                         for ranges small enough to sweep
// Numbers: docs/performance.md. Run: build/tests/bench/bench_symbolic
#include <benchmark/benchmark.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/prove/symbolic.hpp"

namespace {
using namespace tirx;
using namespace tirx::prove;

struct Case {
  const char* name;
  const char* text;
  std::vector<ParamRange> params;
  Scope scope;
  const char* alloc;  // "" = none
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"rowmajor_N_512", "S[(N, 64):(64, 1)]", {{"N", 8, 4096, 8}}, Scope::kShared, "N*64"},
      {"rowmajor_N_5M", "S[(N, 64):(64, 1)]", {{"N", 8, 40960000, 8}}, Scope::kShared, "N*64"},
      {"padded_N_256", "S[(N, N):(N + 8, 1)]", {{"N", 8, 2048, 8}}, Scope::kShared, ""},
      {"NxM_1e11", "S[(N, M):(M, 1)]", {{"N", 1, 1000000, 1}, {"M", 1, 100000, 1}}, Scope::kShared, "N*M"},
      {"interleave_digit_query_1000", "S[(2, N):(3, 2)]", {{"N", 1, 1000, 1}}, Scope::kShared, ""},
      {"tmem_cols_128", "S[(N//32, 32):(32@TCol, 1@TLane)]", {{"N", 32, 4096, 32}}, Scope::kTmem, ""},
      {"swizzle128B_rows_100k", "ComposeLayout(3, 3, 3, S[(R, 64):(64, 1)])", {{"R", 1, 100000, 1}}, Scope::kShared,
       "R*64"},
      {"swizzle128B_rows_1024", "ComposeLayout(3, 3, 3, S[(R, 64):(64, 1)])", {{"R", 1, 1024, 1}}, Scope::kShared,
       "R*64"},
  };
  return c;
}

const MachineLimits& limits() {
  static const MachineLimits m = machine_limits(hw::load_target("sm_100a"));
  return m;
}

CheckInput concrete(const Case& c, const Env& env) {
  CheckInput x;
  x.layout = parse_layout(c.text, env);
  x.scope = c.scope;
  x.machine = limits();
  if (*c.alloc) x.alloc_elems = parse_int_expr(c.alloc, env);
  return x;
}

void register_cases() {
  for (const Case& c : cases()) {
    benchmark::RegisterBenchmark((std::string("BM_Symbolic/") + c.name).c_str(), [c](benchmark::State& st) {
      SymbolicInput in;
      std::vector<std::string> names;
      for (const auto& p : c.params) names.push_back(p.name);
      in.layout = parse_symbolic_layout(c.text, names);
      in.params = c.params;
      if (*c.alloc) in.alloc_elems = parse_symbolic_int(c.alloc, names);
      in.at = [c](const Env& e) { return concrete(c, e); };
      for (auto _ : st) benchmark::DoNotOptimize(run_symbolic(in).size());
    })->Unit(benchmark::kMillisecond);
    std::int64_t bindings = 1;
    for (const auto& p : c.params) bindings *= p.count();
    if (bindings > 4096) continue;
    benchmark::RegisterBenchmark((std::string("BM_Sweep/") + c.name).c_str(), [c](benchmark::State& st) {
      for (auto _ : st) {
        const ParamRange& p = c.params[0];
        for (std::int64_t v = p.lo; v <= p.hi; v += p.step) benchmark::DoNotOptimize(run_all(concrete(c, {{p.name, v}})).size());
      }
    })->Unit(benchmark::kMillisecond);
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
