// smem.bank-conflicts by engine (docs/performance.md "smem.bank-conflicts: three engines"):
//   BM_Rows/<log2 rows>/<pitch>/<engine> — a fp16 buffer of `rows` 128-byte rows (pitch 64: dense,
//     64S: 128B-swizzled, 72 / 80: padded 16 / 32 bytes), each thread reading one row 16 bytes per
//     instruction (S[(rows/32, 32, 8, 8):(64, 1@laneid, 8, 1)]); engine auto / sim / z3 / gf2.
//     2^18 rows = 2^24 elements: the "2^24-element buffer within seconds"; auto on
//     padded rows also at 2^40 and 2^55 rows (the translation rule, bank_translate.hpp).
//   BM_SymbolicPitch/<hi> — check --param N=8..hi:8 of S[(32,N):(N+1,1)] read by columns (4-byte
//     float32), one Z3 query for every binding.
//   BM_Golden — z3_access and gf2_wavefronts over one recorded-pattern-like access (16-byte rows,
//     128B swizzle).
// Run: build/tests/bench/bench_bank_engines
#include <benchmark/benchmark.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/symbolic.hpp"
#include "tirx_verify/prove/bank_engines.hpp"
#include "tirx_verify/prove/check.hpp"
#include "tirx_verify/prove/symbolic.hpp"

namespace {
using namespace tirx;
using namespace tirx::prove;

const hw::Target& sm90() {
  static const hw::Target t = hw::load_target("sm_90a");
  return t;
}

// pitch: 0 = 64 swizzled, else the row pitch in elements.
void BM_Rows(benchmark::State& st) {
  const std::int64_t rows = std::int64_t{1} << st.range(0);
  const std::int64_t pitch = st.range(1);
  const Engine engines[] = {Engine::kAuto, Engine::kEnum, Engine::kZ3, Engine::kGf2};
  CheckInput in;
  const std::string tile = "S[(" + std::to_string(rows) + ",64):(" + std::to_string(pitch ? pitch : 64) + ",1)]";
  in.layout = parse_layout(pitch ? tile : "ComposeLayout(3,3,3," + tile + ")");
  in.access = parse_layout("S[(" + std::to_string(rows / 32) + ",32,8,8):(64,1@laneid,8,1)]");
  in.scope = Scope::kShared;
  in.elem_bits = 16;
  in.access_bytes = 16;
  in.machine = machine_limits(sm90());
  in.target = &sm90();
  in.engine = engines[st.range(2)];
  const CheckInfo* c = find_check("smem.bank-conflicts");
  std::string engine;
  for (auto _ : st) {
    const CheckResult r = c->run(in);
    if (r.status == Status::kUndecided) st.SkipWithError(r.message.c_str());
    engine = r.engine + (r.status == Status::kPass ? " pass" : " fail");
  }
  st.SetLabel(engine);
  st.counters["elements"] = static_cast<double>(rows) * 64;
}
BENCHMARK(BM_Rows)
    ->ArgsProduct({{10, 14, 18}, {0, 64, 72, 80}, {0, 2}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Rows)->ArgsProduct({{10, 14, 18}, {0, 64}, {3}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Rows)->ArgsProduct({{10, 14, 18}, {0, 72}, {1}})->Unit(benchmark::kMillisecond)->Iterations(1);
// auto on padded rows past any sweep (2^46 and 2^61 elements): the translation rule.
BENCHMARK(BM_Rows)->ArgsProduct({{40, 55}, {72, 80}, {0}})->Unit(benchmark::kMillisecond);

void BM_SymbolicPitch(benchmark::State& st) {
  const std::int64_t hi = st.range(0);
  const std::vector<std::string> names = {"N"};
  SymbolicInput si;
  si.layout = parse_symbolic_layout("S[(32,N):(N+1,1)]", names);
  si.access = parse_symbolic_layout("S[(32,N):(1@laneid,1)]", names);
  si.params = {parse_param_range("N=8.." + std::to_string(hi) + ":8")};
  si.at = [](const Env& env) {
    CheckInput in;
    in.layout = parse_layout("S[(32,N):(N+1,1)]", env);
    in.access = parse_layout("S[(32,N):(1@laneid,1)]", env);
    in.scope = Scope::kShared;
    in.elem_bits = 32;
    in.access_bytes = 4;
    in.machine = machine_limits(sm90());
    in.target = &sm90();
    return in;
  };
  for (auto _ : st) {
    const auto rs = run_symbolic(si);
    if (rs.back().id != "smem.bank-conflicts" || rs.back().status != Status::kPass) st.SkipWithError(rs.back().message.c_str());
  }
  st.counters["bindings"] = static_cast<double>(si.params[0].count());
}
BENCHMARK(BM_SymbolicPitch)->Arg(256)->Arg(1 << 20)->Arg(1 << 30)->Unit(benchmark::kMillisecond);

void BM_Access(benchmark::State& st) {
  std::vector<std::uint64_t> addr(32);
  for (std::uint64_t t = 0; t < 32; ++t) addr[t] = 128 * (t / 8) + 16 * ((t % 8) ^ (t / 8 % 8));
  const banks::PhaseModel pm = banks::phase_model(sm90(), 16, false);
  for (auto _ : st) {
    if (st.range(0) == 0) {
      benchmark::DoNotOptimize(banks::gf2_wavefronts(sm90(), addr, 0xFFFFFFFFu, pm));
    } else if (st.range(0) == 1) {
      hw::SmemAccess a{16, addr, 0xFFFFFFFFu, false};
      benchmark::DoNotOptimize(hw::count_wavefronts(sm90(), a));
    } else {
      benchmark::DoNotOptimize(banks::z3_access(sm90(), addr, 0xFFFFFFFFu, pm, EngineLimits{}));
    }
  }
  st.SetLabel(st.range(0) == 0 ? "gf2" : st.range(0) == 1 ? "sim" : "z3");
}
BENCHMARK(BM_Access)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
