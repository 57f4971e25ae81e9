// Exhaustive sweeps: how many layout points per second one core evaluates.
//   BM_SweepTmemLayoutD   — Sweep::for_each over S[(128,512):(1@TLane,1@TCol)], all 65536 points
//   BM_ApplyTmemLayoutD   — the same points through TileLayout::apply(flat), one at a time
//   BM_InjectiveTmem      — the layout.injective check on the same layout (owner array)
// Issue 14 step 5, side by side in one run (docs/performance.md "The sweep"): every benchmark
// below writes one int64 key per point, key = sum_axis coef_axis * value_axis (a cell index, as
// the enumeration engine's owner array uses), into one output array in flat order:
//   BM_Keys/<case>/write   — the baseline: the array written as a plain ramp out[i] = a*i + b
//                            (no layout at all: what storing the keys costs)
//   BM_Keys/<case>/runs    — Sweep::for_each_run: per block one key, then out[..] = k0 + i*dk2 + j*dk
//   BM_Keys/<case>/points  — Sweep::for_each: the key of every point from its values
//   BM_Keys/<case>/odometer — the per-point odometer the sweep used before (a copy kept here as
//                            the reference: one carry check per point)
// Target (issue 2): >= 300 M points/s per core for the sweep; issue 14: within 3x of `write`.
#include <benchmark/benchmark.h>

#include <vector>

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

// ---- keys side by side ----

struct KeyCase {
  const char* name;
  TileLayout layout;
  std::vector<std::int64_t> coef;  // per Sweep axis slot
};

std::vector<KeyCase> key_cases() {
  std::vector<KeyCase> v;
  auto add = [&](const char* name, TileLayout l, std::vector<std::pair<AxisId, std::int64_t>> coefs) {
    const Sweep sw(l, true);
    std::vector<std::int64_t> c(sw.axes().size(), 0);
    for (auto [a, k] : coefs) c[static_cast<std::size_t>(sw.index_of(a))] = k;
    v.push_back({name, std::move(l), std::move(c)});
  };
  // TMEM Layout D, 128 lanes x 512 columns: key = lane * 512 + column (2^16 points, 512 KB out).
  add("layoutD_128x512", layout_d(), {{AxisId::TLane, 512}, {AxisId::TCol, 1}});
  // A 128B-swizzle-like tiled shared tile (64, 256) fp16 as 4 iters, 2^14 points... x64 = 2^20.
  add("tiled_2^20", TileLayout({Iter{64, 64, AxisId::m}, Iter{4, 4096, AxisId::m}, Iter{64, 16384 * 4, AxisId::m},
                                Iter{64, 1, AxisId::m}}),
      {{AxisId::m, 1}});
  // Short runs: an inner extent of 4, 2^16 points.
  add("inner4_2^16", TileLayout({Iter{4096, 16, AxisId::m}, Iter{4, 1, AxisId::m}, Iter{4, 4, AxisId::m}}),
      {{AxisId::m, 1}});
  // A register fragment with 4 replica copies (replica digits fastest): 2^18 points.
  add("replicated_2^18",
      TileLayout({Iter{32, 1, AxisId::laneid}, Iter{2048, 1, AxisId::m}}, {Iter{4, 1, AxisId::warpid}}),
      {{AxisId::laneid, 1 << 20}, {AxisId::m, 4}, {AxisId::warpid, 1}});
  return v;
}

// The per-point odometer Sweep::for_each was before issue 14 (the reference): every point does
// the innermost carry check, and replica and shard odometers are separate loops.
template <class F>
void odometer(const TileLayout& l, F f) {
  const Sweep sw(l, true);
  std::vector<int> slot(l.shard.size()), rslot(l.replica.size());
  std::vector<std::int64_t> v(sw.axes().size(), 0);
  for (const auto& e : l.offset.entries()) v[static_cast<std::size_t>(sw.index_of(e.axis))] = e.value;
  for (std::size_t k = 0; k < l.shard.size(); ++k) slot[k] = sw.index_of(l.shard[k].axis);
  for (std::size_t k = 0; k < l.replica.size(); ++k) rslot[k] = sw.index_of(l.replica[k].axis);
  std::vector<std::int64_t> sd(l.shard.size(), 0), rd(l.replica.size(), 0);
  std::int64_t flat = 0;
  while (true) {
    while (true) {
      f(flat, v.data());
      std::size_t k = l.replica.size();
      bool stepped = false;
      while (k > 0) {
        --k;
        if (++rd[k] < l.replica[k].extent) {
          v[rslot[k]] += l.replica[k].stride;
          stepped = true;
          break;
        }
        v[rslot[k]] -= (l.replica[k].extent - 1) * l.replica[k].stride;
        rd[k] = 0;
      }
      if (!stepped) break;
    }
    std::size_t k = l.shard.size();
    while (true) {
      if (k == 0) return;
      --k;
      if (++sd[k] < l.shard[k].extent) {
        v[slot[k]] += l.shard[k].stride;
        ++flat;
        break;
      }
      v[slot[k]] -= (l.shard[k].extent - 1) * l.shard[k].stride;
      sd[k] = 0;
    }
  }
}

void register_keys() {
  for (const KeyCase& c : key_cases()) {
    const std::string base = std::string("BM_Keys/") + c.name + "/";
    benchmark::RegisterBenchmark((base + "write").c_str(), [c](benchmark::State& st) {
      const Sweep sw(c.layout, true);
      std::vector<std::int64_t> out(static_cast<std::size_t>(sw.points()));
      const std::int64_t a = c.coef.back(), b = 7;
      for (auto _ : st) {
        std::int64_t* o = out.data();
        const std::int64_t n = sw.points();
        for (std::int64_t i = 0; i < n; ++i) o[i] = a * i + b;
        benchmark::ClobberMemory();
      }
      st.SetItemsProcessed(st.iterations() * sw.points());
    });
    benchmark::RegisterBenchmark((base + "runs").c_str(), [c](benchmark::State& st) {
      const Sweep sw(c.layout, true);
      std::vector<std::int64_t> out(static_cast<std::size_t>(sw.points()));
      const std::int64_t reps = sw.replicas();
      const std::size_t na = c.coef.size();
      for (auto _ : st) {
        std::int64_t* o = out.data();
        sw.for_each_run([&](const Sweep::Run& r) {
          std::int64_t k0 = 0;
          for (std::size_t i = 0; i < na; ++i) k0 += c.coef[i] * r.values[i];
          const std::int64_t dk = r.slot >= 0 ? c.coef[static_cast<std::size_t>(r.slot)] * r.stride : 0;
          const std::int64_t dk2 = r.slot2 >= 0 ? c.coef[static_cast<std::size_t>(r.slot2)] * r.stride2 : 0;
          const std::int64_t step = r.flat_step * reps + r.replica_step, step2 = r.flat_step2 * reps + r.replica_step2;
          std::int64_t* dst = o + r.flat * reps + r.replica;
          for (std::int64_t i = 0; i < r.count2; ++i, dst += step2, k0 += dk2) {
            if (step == 1) {
              for (std::int64_t j = 0; j < r.count; ++j) dst[j] = k0 + j * dk;  // the ramp: vectorised
            } else {
              for (std::int64_t j = 0; j < r.count; ++j) dst[j * step] = k0 + j * dk;
            }
          }
        });
        benchmark::ClobberMemory();
      }
      st.SetItemsProcessed(st.iterations() * sw.points());
    });
    benchmark::RegisterBenchmark((base + "points").c_str(), [c](benchmark::State& st) {
      const Sweep sw(c.layout, true);
      std::vector<std::int64_t> out(static_cast<std::size_t>(sw.points()));
      const std::int64_t reps = sw.replicas();
      const std::size_t na = c.coef.size();
      for (auto _ : st) {
        std::int64_t* o = out.data();
        sw.for_each([&](std::int64_t flat, std::int64_t rep, const std::int64_t* v) {
          std::int64_t k = 0;
          for (std::size_t i = 0; i < na; ++i) k += c.coef[i] * v[i];
          o[flat * reps + rep] = k;
        });
        benchmark::ClobberMemory();
      }
      st.SetItemsProcessed(st.iterations() * sw.points());
    });
    benchmark::RegisterBenchmark((base + "odometer").c_str(), [c](benchmark::State& st) {
      const Sweep sw(c.layout, true);
      std::vector<std::int64_t> out(static_cast<std::size_t>(sw.points()));
      const std::size_t na = c.coef.size();
      for (auto _ : st) {
        std::int64_t* o = out.data();
        std::int64_t at = 0;
        odometer(c.layout, [&](std::int64_t, const std::int64_t* v) {
          std::int64_t k = 0;
          for (std::size_t i = 0; i < na; ++i) k += c.coef[i] * v[i];
          o[at++] = k;
        });
        benchmark::ClobberMemory();
      }
      st.SetItemsProcessed(st.iterations() * sw.points());
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_keys();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
