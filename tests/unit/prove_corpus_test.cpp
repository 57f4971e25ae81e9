// The engines agree on the real-kernel corpus (models/kernels/*.json, 421 buffers, 245 distinct
// (layout, scope, dtype, allocation) combinations) and on factory outputs over their legal
// arguments: every buffer's layout.injective and layout.bounds run under --cross-check, so every
// applicable engine decides and a disagreement would fail the check ("ENGINES DISAGREE").
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/sweep.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/source_dir.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {
namespace {

struct Tally {
  int runs = 0, all_three = 0, two = 0, single = 0;
  std::set<std::string> statuses;
};

// Enumeration is capped at the crossover so the test stays fast: the few global views above it
// (up to 9.4 M points) are decided by z3 (and gf2 where it applies) only.
constexpr std::int64_t kEnumCap = kEnumCrossoverPoints;

// Cross-checks injectivity and bounds; returns how many engines decided each.
void cross_check(const CheckInput& base, const std::string& what, Tally& t) {
  const std::int64_t points = Sweep(base.layout.tile(), true).points();
  for (const char* id : {"layout.injective", "layout.bounds"}) {
    CheckInput in = base;
    in.cross_check = true;
    in.limits.max_enumeration_points = kEnumCap;
    const auto t0 = std::chrono::steady_clock::now();
    const CheckResult r = find_check(id)->run(in);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (std::getenv("TIRX_PROVE_TIMES") && sec > 0.03) std::printf("%.3f s %s %s [%s]\n", sec, what.c_str(), id, r.engine.c_str());
    ++t.runs;
    EXPECT_EQ(r.message.find("DISAGREE"), std::string::npos) << what << " " << id << ": " << r.message;
    EXPECT_NE(r.status, Status::kUndecided) << what << " " << id << ": " << r.message;
    const auto engines = std::count(r.engine.begin(), r.engine.end(), '+') + 1;
    EXPECT_GE(engines, points > kEnumCap ? 1 : 2) << what << " " << id << ": only " << r.engine;
    t.single += engines == 1;
    t.all_three += engines == 3;
    t.two += engines == 2;
    t.statuses.insert(std::string(id) + " " + std::string(status_name(r.status)));
  }
}

TEST(Corpus, EnginesAgreeOnEveryKernelModelBuffer) {
  const std::filesystem::path dir = std::filesystem::path(std::string(tirx::source_dir())) / "models" / "kernels";
  const hw::Target target = hw::load_target("sm_100a");
  std::set<std::tuple<std::string, std::string, std::string, std::int64_t>> seen;
  Tally t;
  int buffers = 0, corpus_buffers = 0;
  std::set<std::tuple<std::string, std::string, std::string, std::int64_t>> corpus_seen;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream f(entry.path());
    const nlohmann::json m = nlohmann::json::parse(f);
    Env env;
    if (m.contains("params"))
      for (const auto& [name, p] : m["params"].items())
        if (p.contains("value") && p["value"].is_number_integer()) env[name] = p["value"].get<std::int64_t>();
    for (const auto& b : m["buffers"]) {
      ++buffers;
      const std::string layout = b["layout"], scope = b["scope"], dtype = b.value("dtype", "");
      const std::int64_t cols = b.value("alloc_cols", std::int64_t{0});
      // The 421 corpus records; buffers added for the ops (global tensors of whole problem sizes,
      // fragments) are checked by the kernel tests.
      if (!b.contains("corpus")) continue;
      ++corpus_buffers;
      corpus_seen.insert({layout, scope, dtype, cols});
      if (!seen.insert({layout, scope, dtype, cols}).second) continue;
      CheckInput in;
      in.layout = parse_layout(layout, env);
      in.scope = parse_scope(scope);
      in.elem_bits = dtype.empty() ? 0 : DType::parse(dtype).bits;
      in.dtype = dtype;
      if (cols) in.alloc_cols = cols;
      in.machine = machine_limits(target);
      cross_check(in, entry.path().stem().string() + ":" + std::string(b["name"]), t);
    }
  }
  EXPECT_EQ(corpus_buffers, 421);
  EXPECT_EQ(corpus_seen.size(), 245u);
  EXPECT_GT(buffers, corpus_buffers);  // the kernel models add buffers for their ops
  EXPECT_GE(t.all_three, 100);  // gf2 applies to a large part of the corpus
  EXPECT_LE(t.single, 20);      // only the few views past the enumeration cap
  std::string s;
  for (const auto& x : t.statuses) s += x + "; ";
  RecordProperty("verdicts", s);
  RecordProperty("three_engines", t.all_three);
}

TEST(Corpus, EnginesAgreeOnFactoryOutputs) {
  const hw::Target target = hw::load_target("sm_100a");
  Tally t;
  auto run = [&](Layout l, Scope scope, int bits, std::optional<std::int64_t> cols, const std::string& what) {
    CheckInput in;
    in.layout = std::move(l);
    in.scope = scope;
    in.elem_bits = bits;
    in.alloc_cols = cols;
    in.machine = machine_limits(target);
    cross_check(in, what, t);
  };
  // TMEM datapaths A..G at their row counts (PTX ISA 9.1 §9.7.16.10.5), several widths.
  for (const auto& [dp, rows] : std::vector<std::pair<std::string, std::int64_t>>{
           {"A", 128}, {"D", 128}, {"B", 64}, {"E", 64}, {"C", 64}, {"F", 64}, {"G", 32}})
    for (std::int64_t cols : {32, 96, 256, 512})
      for (int sub : {0, 1}) {
        if (sub && dp != "C" && dp != "F") continue;
        run(tmem_datapath_layout(dp, rows, cols, sub), Scope::kTmem, 32, 512,
            fmt::format("tmem_datapath_layout({}, {}, {}, {})", dp, rows, cols, sub));
      }
  // tcgen05 register fragments (Table 49 reps).
  for (const char* shape : {"32x32b", "16x64b", "16x128b", "16x256b"})
    for (std::int64_t rows : {64, 128})
      for (const char* dt : {"float32", "float16"})
        for (std::int64_t cols : {8, 32, 128}) {
          TileLayout l;
          try {
            l = tcgen05_atom_layout(shape, rows, cols, DType::parse(dt));
          } catch (const InputError&) {
            continue;  // not a legal combination
          }
          run(l, Scope::kLocal, DType::parse(dt).bits, std::nullopt,
              fmt::format("tcgen05_atom_layout({}, ({}, {}), {})", shape, rows, cols, dt));
        }
  // Scale factors in TMEM and shared memory.
  for (std::int64_t rows : {128, 256})
    for (std::int64_t sfk : {4, 8, 16})
      for (std::int64_t per : {1, 2, 4}) {
        if (sfk % per) continue;
        run(sf_tmem_layout(rows, sfk, per), Scope::kTmem, 8, 512, fmt::format("sf_tmem_layout({},{},{})", rows, sfk, per));
        run(sf_smem_layout(rows, sfk, per), Scope::kShared, 8, std::nullopt,
            fmt::format("sf_smem_layout({},{},{})", rows, sfk, per));
      }
  // MMA operands in shared memory, every dtype x mode on legal shapes.
  for (const char* dt : {"float16", "float32", "uint8", "float4_e2m1fn"})
    for (SwizzleMode mode : {SwizzleMode::kNone, SwizzleMode::k32B, SwizzleMode::k64B, SwizzleMode::k128B})
      for (const std::vector<std::int64_t>& shape :
           std::vector<std::vector<std::int64_t>>{{64, 256}, {128, 128}, {3, 64, 256}}) {
        const DType d = DType::parse(dt);
        Layout l;
        try {
          l = mma_shared_layout(d, mode, shape);
        } catch (const InputError&) {
          continue;  // K not a multiple of the swizzle atom: rejected, as TVM's allocator does
        }
        run(l, Scope::kShared, d.bits, std::nullopt,
            fmt::format("mma_shared_layout({}, {}, {})", dt, static_cast<int>(mode), nlohmann::json(shape).dump()));
      }
  for (std::int64_t cols : {16, 64, 128}) run(wg_local_layout(cols), Scope::kLocal, 32, std::nullopt, "wg_local_layout");
  EXPECT_GE(t.runs, 200);
  EXPECT_GE(t.all_three, 100);
}

}  // namespace
}  // namespace tirx::prove
