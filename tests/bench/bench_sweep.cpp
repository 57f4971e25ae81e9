// Exhaustive sweeps: how many layout points per second one core evaluates.
//   BM_SweepTmemLayoutD   — Sweep (odometer) over S[(128,512):(1@TLane,1@TCol)], all 65536 points
//   BM_ApplyTmemLayoutD   — the same points through TileLayout::apply(flat), one at a time
//   BM_InjectiveTmem      — the layout.injective check on the same layout (owner array)
// Target (issue 2): >= 300 M points/s per core for the sweep.
#include <benchmark/benchmark.h>

#include "tirx_verify/layout/sweep.hpp"
#include "tirx_verify/prove/check.hpp"

namespace {
using namespace tirx;

TileLayout layout_d() {
  return TileLayout({Iter{128, 1, AxisId::TLane}, Iter{512, 1, AxisId::TCol}});
}

void BM_SweepTmemLayoutD(benchmark::State& st) {
  const TileLayout l = layout_d();
  const Sweep sw(l, true);
  const int lane = sw.index_of(AxisId::TLane), col = sw.index_of(AxisId::TCol);
  for (auto _ : st) {
    std::int64_t acc = 0;
    sw.for_each([&](std::int64_t, std::int64_t, const std::int64_t* v) { acc += (v[lane] << 16) | v[col]; });
    benchmark::DoNotOptimize(acc);
  }
  st.SetItemsProcessed(st.iterations() * sw.points());
}
BENCHMARK(BM_SweepTmemLayoutD);

void BM_ApplyTmemLayoutD(benchmark::State& st) {
  const TileLayout l = layout_d();
  for (auto _ : st) {
    std::int64_t acc = 0;
    for (std::int64_t f = 0; f < l.size(); ++f) {
      const Coord c = l.apply(f);
      acc += (c.get(AxisId::TLane) << 16) | c.get(AxisId::TCol);
    }
    benchmark::DoNotOptimize(acc);
  }
  st.SetItemsProcessed(st.iterations() * l.size());
}
BENCHMARK(BM_ApplyTmemLayoutD);

void BM_InjectiveTmem(benchmark::State& st) {
  prove::CheckInput in;
  in.layout = layout_d();
  in.scope = prove::Scope::kTmem;
  const auto* check = prove::find_check("layout.injective");
  for (auto _ : st) {
    auto r = check->run(in);
    benchmark::DoNotOptimize(r.status);
  }
  st.SetItemsProcessed(st.iterations() * 65536);
}
BENCHMARK(BM_InjectiveTmem);

}  // namespace

BENCHMARK_MAIN();
