// The swizzle-is-a-bijection rule (docs/performance.md "Which rule decided what"): layout.injective
// of a swizzled layout whose stride test fails, at 2^18 .. 2^56 points, decided
//   BM_InjectiveSwizzled/<log2 R>/auto — as `check` does: on the tile (the rule), engine swizzle-bijection+...
//   BM_InjectiveSwizzled/<log2 R>/z3   — forced z3 on the swizzled form (bit-vectors: the cost before the rule)
// on ComposeLayout(3, 3, 3, S[(R, 8, 9):(144, 9, 8)]) (the measured family; the 8 x 9 block
// overlaps itself, so neither the stride test nor gf2 applies).
//   BM_Audit/<factory> — tirx-verify audit's sweep of one factory (prove::run_audit).
// Run: build/tests/bench/bench_swizzle_rule
#include <benchmark/benchmark.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/prove/audit.hpp"
#include "tirx_verify/prove/check.hpp"

namespace {
using namespace tirx;
using namespace tirx::prove;

void BM_InjectiveSwizzled(benchmark::State& st) {
  const std::int64_t rows = std::int64_t{1} << st.range(0);
  CheckInput in;
  in.layout = parse_layout("ComposeLayout(3, 3, 3, S[(" + std::to_string(rows) + ", 8, 9):(144, 9, 8)])");
  in.scope = Scope::kShared;
  in.engine = st.range(1) == 0 ? Engine::kAuto : Engine::kZ3;
  const CheckInfo* c = find_check("layout.injective");
  for (auto _ : st) {
    const CheckResult r = c->run(in);
    if (r.status != Status::kPass) st.SkipWithError(r.message.c_str());
  }
  st.SetLabel(st.range(1) == 0 ? "auto (rule)" : "z3 on the swizzled form");
  st.counters["points"] = static_cast<double>(rows) * 72;
}
BENCHMARK(BM_InjectiveSwizzled)
    ->ArgsProduct({{9, 20, 30, 40, 50}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

void BM_Audit(benchmark::State& st, const char* factory) {
  static const hw::Target t = hw::load_target("sm_100a");
  AuditContext ctx;
  ctx.target = &t;
  for (auto _ : st) benchmark::DoNotOptimize(run_audit(ctx, {factory}).front().argument_sets);
}
BENCHMARK_CAPTURE(BM_Audit, sf_tmem_layout, "sf_tmem_layout")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Audit, mma_shared_layout, "mma_shared_layout")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Audit, tcgen05_atom_layout, "tcgen05_atom_layout")->Unit(benchmark::kMillisecond);
}  // namespace

BENCHMARK_MAIN();
