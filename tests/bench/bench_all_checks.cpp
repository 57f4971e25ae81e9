// Every layout check on concrete layouts up to 2^62 points, swizzled and not (issue 14: "every
// check's median under 50 ms and its maximum under 1 s"; docs/performance.md "Every check at any
// size"). A representative set: the corpus shapes scaled up (128B-swizzled fp16 operands, padded
// rows, the self-overlapping swizzled block), TMEM (Layout D with its 32x32b fragment,
// a TMEM buffer of 2^62 cells, a replicated scale-factor-like buffer), shared memory with the
// 16-byte row reads of bench_bank_engines, register fragments. Each case gives every check what
// it needs (a second layout for layout.equivalent, --access for the TMEM and bank checks).
//
// The program first prints a summary (each applicable (case, check) run 3 times, the median
// time; then per check the median and maximum over the cases, and the engine that decided),
// then runs the same pairs as Google Benchmarks BM_Check/<case>/<check>.
// Run: build/tests/bench/bench_all_checks [--summary-only]
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/prove/check.hpp"

namespace {
using namespace tirx;
using namespace tirx::prove;

const hw::Target& target() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

struct Case {
  std::string name;
  std::string layout, other, access;
  Scope scope = Scope::kShared;
  int elem_bits = 16;
  std::string dtype = "float16";
  int access_bytes = 0;
  std::optional<std::vector<std::int64_t>> shape = std::nullopt;
  std::optional<std::int64_t> alloc_cols = std::nullopt;
};

std::string p2(int k) { return std::to_string(std::int64_t{1} << k); }

std::vector<Case> cases() {
  std::vector<Case> v;
  // Shared memory: rows of 64 fp16 (128 B), read 16 bytes per thread per row (bench_bank_engines).
  auto rows_access = [](int log_rows) { return "S[(" + p2(log_rows - 5) + ",32,8,8):(64,1@laneid,8,1)]"; };
  for (int lr : {18, 40, 56}) {  // 2^24, 2^46, 2^62 elements
    const std::string r = p2(lr);
    v.push_back({fmt::format("dense_2^{}", lr + 6), "S[(" + r + ",64):(64,1)]", "S[" + p2(lr + 6) + ":1]",
                 rows_access(lr), Scope::kShared, 16, "float16", 16});
    v.push_back({fmt::format("swizzled128B_2^{}", lr + 6), "ComposeLayout(3,3,3,S[(" + r + ",64):(64,1)])",
                 "ComposeLayout(3,3,3,S[(" + r + ",8,8):(64,8,1)])", rows_access(lr), Scope::kShared, 16, "float16", 16});
  }
  for (int lr : {18, 40, 55}) {  // padded rows of 144 B: 2^24, 2^46, 2^61 elements
    const std::string r = p2(lr);
    v.push_back({fmt::format("padded144B_2^{}", lr + 6), "S[(" + r + ",64):(72,1)]", "S[(" + r + ",8,8):(72,8,1)]",
                 rows_access(lr), Scope::kShared, 16, "float16", 16});
  }
  for (int lr : {12, 40, 55}) {  // the family: 72 * R points, up to 2^61.2
    const std::string r = p2(lr), h = p2(lr - 1);
    v.push_back({fmt::format("swizzled_overlap_R=2^{}", lr), "ComposeLayout(3,3,3,S[(" + r + ",8,9):(144,9,8)])",
                 "ComposeLayout(3,3,3,S[(" + h + ",2,8,9):(288,144,9,8)])", "", Scope::kShared});
  }
  // TMEM.
  v.push_back({"tmem_layoutD_128x128", "tmem_datapath_layout(\"D\", 128, 128)", "S[(4,32,128):(32@TLane,1@TLane,1@TCol)]",
               "tcgen05_atom_layout(\"32x32b\", (128, 128), \"float32\")", Scope::kTmem, 32, "float32", 0,
               std::vector<std::int64_t>{128, 128}, 128});
  for (int lc : {54, 55})  // 2^61 and 2^62 cells (2^62: past the symbolic engine's magnitude bound)
    v.push_back({fmt::format("tmem_2^{}", lc + 7), "S[(128," + p2(lc) + "):(1@TLane,1@TCol)]",
                 "S[(4,32," + p2(lc) + "):(32@TLane,1@TLane,1@TCol)]", "S[(4,32," + p2(lc) + "):(1@warpid,1@laneid,1)]",
                 Scope::kTmem, 32, "float32", 0, std::nullopt, 512});
  v.push_back({"tmem_replicated_2^40", "S[(32," + p2(35) + "):(1@TLane,1@TCol)] + R[4:32@TLane]",
               "S[(32," + p2(35) + "):(1@TLane,1@TCol)] + R[(2,2):(64@TLane,32@TLane)]",
               "S[(32," + p2(35) + "):(1@laneid,1)] + 3@warpid", Scope::kTmem, 32, "float32"});
  // Register fragments.
  v.push_back({"fragment_32x32b", "tcgen05_atom_layout(\"32x32b\", (128, 128), \"float32\")",
               "S[(4,32,128):(32@tid_in_wg,1@tid_in_wg,1)]", "", Scope::kLocal, 32, "float32"});
  v.push_back({"fragment_2^57", "S[(32," + p2(50) + ",4):(1@laneid,4,1)]", "S[(32," + p2(51) + ",2):(1@laneid,2,1)]", "",
               Scope::kLocal, 32, "float32"});
  return v;
}

CheckInput input(const Case& c) {
  CheckInput in;
  in.layout = parse_layout(c.layout);
  in.text = c.layout;
  if (!c.other.empty()) {
    in.other = parse_layout(c.other);
    in.other_text = c.other;
  }
  if (!c.access.empty()) {
    in.access = parse_layout(c.access);
    in.access_text = c.access;
  }
  in.scope = c.scope;
  in.elem_bits = c.elem_bits;
  in.dtype = c.dtype;
  in.access_bytes = c.access_bytes;
  in.shape = c.shape;
  in.alloc_cols = c.alloc_cols;
  in.machine = machine_limits(target());
  in.target = &target();
  return in;
}

double run_ms(const CheckInfo& c, const CheckInput& in, CheckResult* out) {
  const auto t0 = std::chrono::steady_clock::now();
  CheckResult r = c.run(in);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (out) *out = std::move(r);
  return ms;
}

void summary() {
  std::map<std::string, std::vector<std::pair<double, std::string>>> per_check;  // ms, "case (engine, status)"
  fmt::print("| case | check | status | engine | median of 3 (ms) |\n|---|---|---|---|---:|\n");
  for (const Case& c : cases()) {
    const CheckInput in = input(c);
    for (const CheckInfo& info : checks()) {
      if (!info.run) continue;
      CheckResult r;
      std::vector<double> t;
      for (int k = 0; k < 3; ++k) t.push_back(run_ms(info, in, &r));
      if (r.status == Status::kNotApplicable) continue;
      std::sort(t.begin(), t.end());
      fmt::print("| {} | {} | {} | {} | {:.3f} |\n", c.name, info.id, status_name(r.status), r.engine, t[1]);
      per_check[std::string(info.id)].emplace_back(t[1], c.name + " (" + r.engine + ")");
    }
  }
  fmt::print("\n| check | cases | median (ms) | max (ms) | slowest case (engine) |\n|---|---:|---:|---:|---|\n");
  for (auto& [id, v] : per_check) {
    std::sort(v.begin(), v.end());
    const double med = v.size() % 2 ? v[v.size() / 2].first : (v[v.size() / 2 - 1].first + v[v.size() / 2].first) / 2;
    fmt::print("| {} | {} | {:.3f} | {:.3f} | {} |\n", id, v.size(), med, v.back().first, v.back().second);
  }
}

void register_benchmarks() {
  for (const Case& c : cases()) {
    const CheckInput in = input(c);
    for (const CheckInfo& info : checks()) {
      if (!info.run || info.run(in).status == Status::kNotApplicable) continue;
      benchmark::RegisterBenchmark(fmt::format("BM_Check/{}/{}", c.name, info.id).c_str(),
                                   [in, run = info.run](benchmark::State& st) {
                                     for (auto _ : st) benchmark::DoNotOptimize(run(in).status);
                                   })
          ->Unit(benchmark::kMillisecond);
    }
  }
}
}  // namespace

int main(int argc, char** argv) {
  summary();
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--summary-only") == 0) return 0;
  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
