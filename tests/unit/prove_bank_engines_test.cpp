// smem.bank-conflicts three ways (prove/bank_engines.hpp): GF(2) and Z3 against the calibrated
// simulator on the H200 golden patterns and on layout pairs, and the large-buffer cases the
// simulator is too slow for.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include <nlohmann/json.hpp>

#include "test_util.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/source_dir.hpp"
#include "tirx_verify/prove/bank_engines.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {
namespace {
using namespace tirx::test;
using nlohmann::json;

const hw::Target& sm90() {
  static const hw::Target t = hw::load_target("sm_90a");
  return t;
}

json golden(const std::string& file) {
  std::ifstream in(std::string(tirx::source_dir()) + "/tests/golden/hw/" + file);
  return json::parse(in);
}

// Every recorded H200 pattern (ld/st of 4/8/16 bytes, ldmatrix/stmatrix): where GF(2) applies its
// count equals the simulator's (which equals the measurement, hw_readback_replay_test), and Z3's
// "two threads of one phase at different words of one bank" holds exactly when the simulator
// counts excess wavefronts.
TEST(BankEngines, GoldenH200PatternsAgreeWithTheSimulator) {
  int patterns = 0, gf2_decided = 0, conflicted = 0;
  for (const char* file : {"h200_banks.json", "h200_banks_pairs.json"}) {
    const json doc = golden(file);
    for (const json& r : doc.at("records")) {
      const std::string name = r.at("name"), op = r.at("op");
      SCOPED_TRACE(name);
      std::vector<std::uint64_t> addr = r.at("addr").get<std::vector<std::uint64_t>>();
      std::uint64_t mask = std::stoull(r.at("mask").get<std::string>(), nullptr, 16);
      hw::WavefrontCount sim;
      banks::PhaseModel pm;
      if (op == "ld" || op == "st") {
        hw::SmemAccess a{r.at("width").get<int>(), addr, mask, op == "st"};
        sim = hw::count_wavefronts(sm90(), a);
        pm = banks::phase_model(sm90(), a.width_bytes, a.is_store);
      } else {
        const std::size_t rows = 8 * r.at("width").get<std::size_t>();
        sim = hw::ldmatrix_wavefronts(sm90(), std::span<const std::uint64_t>(addr.data(), rows));
        mask = rows == 32 ? ~std::uint32_t{0} : (std::uint64_t{1} << rows) - 1;
        pm = banks::ldmatrix_phase_model(sm90());
      }
      ++patterns;
      const auto g = banks::gf2_wavefronts(sm90(), addr, mask, pm);
      if (const auto* wc = std::get_if<hw::WavefrontCount>(&g)) {
        ++gf2_decided;
        EXPECT_EQ(wc->wavefronts, sim.wavefronts);
        EXPECT_EQ(wc->ideal, sim.ideal);
      }
      const banks::AccessVerdict z = banks::z3_access(sm90(), addr, mask, pm, EngineLimits{});
      ASSERT_NE(z.status, Status::kUndecided) << z.message;
      EXPECT_EQ(z.status == Status::kFail, sim.excess() > 0) << z.message;
      conflicted += sim.excess() > 0;
      if (z.status == Status::kFail) {
        EXPECT_NE(z.lane_a, z.lane_b);
        EXPECT_TRUE((mask >> z.lane_a) & 1u);
        EXPECT_TRUE((mask >> z.lane_b) & 1u);
      }
    }
  }
  EXPECT_EQ(patterns, 134);
  // Most recorded patterns are affine in the lane bits (strides, swizzles, pairs); the random
  // and irregular ones are not. Both kinds must be present for the comparison to mean much.
  EXPECT_GT(gf2_decided, 67);
  EXPECT_LT(gf2_decided, patterns);
  EXPECT_GT(conflicted, 10);
  EXPECT_LT(conflicted, patterns);
  std::cout << "[ gf2 decided " << gf2_decided << " of " << patterns << " patterns; " << conflicted << " conflict ]\n";
}

CheckInput smem(Layout buf, TileLayout frag, int bits, int bytes, Engine e) {
  CheckInput in;
  in.layout = std::move(buf);
  in.access = Layout(std::move(frag));
  in.scope = Scope::kShared;
  in.elem_bits = bits;
  in.access_bytes = bytes;
  in.machine = machine_limits(sm90());
  in.target = &sm90();
  in.engine = e;
  return in;
}

CheckResult bank(const CheckInput& in) { return find_check("smem.bank-conflicts")->run(in); }

// Layout pairs: gf2, the simulator and z3 give one verdict; gf2's witness is the simulator's.
TEST(BankEngines, EnginesAgreeOnLayoutPairs) {
  struct Case {
    Layout buf;
    TileLayout frag;
    int bits, bytes;
    bool conflict_free;
  };
  const TileLayout rows = TL({I(32, 64), I(64, 1)});              // 32 fp16 rows of 128 B
  const TileLayout row_frag = TL({I(32, 1, "laneid"), I(64, 1)});  // thread t reads row t
  // (8, 64) fp16: lane = row + 8 * (chunk % 4), instruction = chunk / 4.
  const TileLayout chunk_frag = TL({I(8, 1, "laneid"), I(2, 8), I(4, 8, "laneid"), I(8, 1)});
  const std::vector<Case> cases = {
      {rows, row_frag, 16, 16, false},
      {CL(3, 3, 3, rows), row_frag, 16, 16, true},
      {TL({I(32, 72), I(64, 1)}), row_frag, 16, 16, true},       // padded 16 B
      {TL({I(32, 80), I(64, 1)}), row_frag, 16, 16, false},      // padded 32 B: rows 4 apart collide
      {TL({I(8, 64), I(64, 1)}), chunk_frag, 16, 16, false},
      {CL(3, 3, 3, TL({I(8, 64), I(64, 1)})), chunk_frag, 16, 16, true},
      {CL(3, 2, 3, TL({I(8, 64), I(64, 1)})), chunk_frag, 16, 16, false},  // 64B swizzle on 128 B rows
      {TL({I(32, 32), I(32, 1)}), TL({I(32, 1), I(32, 1, "laneid")}), 32, 4, true},   // row reads by 32 lanes
      {TL({I(32, 32), I(32, 1)}), TL({I(32, 1, "laneid"), I(32, 1)}), 32, 4, false},  // column reads
      {TL({I(32, 33), I(32, 1)}), TL({I(32, 1, "laneid"), I(32, 1)}), 32, 4, true},   // padded columns
      // 8-byte loads where lane pairs share one address (a replicated fragment): merged phases.
      {TL({I(16, 2), I(2, 1)}), TL({I(16, 2, "laneid"), I(2, 1)}, {I(2, 1, "laneid")}), 32, 8, true},
      {TL({I(16, 64), I(2, 1)}), TL({I(16, 2, "laneid"), I(2, 1)}, {I(2, 1, "laneid")}), 32, 8, false},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    const Case& c = cases[i];
    const auto t0 = std::chrono::steady_clock::now();
    const CheckResult sim = bank(smem(c.buf, c.frag, c.bits, c.bytes, Engine::kEnum));
    const CheckResult z3 = bank(smem(c.buf, c.frag, c.bits, c.bytes, Engine::kZ3));
    const CheckResult g = bank(smem(c.buf, c.frag, c.bits, c.bytes, Engine::kGf2));
    ASSERT_EQ(sim.status, c.conflict_free ? Status::kPass : Status::kFail) << sim.message;
    EXPECT_EQ(sim.engine, "sim");
    EXPECT_EQ(z3.status, sim.status) << z3.message;
    EXPECT_EQ(z3.engine, "z3");
    if (g.status != Status::kUndecided) {
      EXPECT_EQ(g.status, sim.status) << g.message;
      EXPECT_EQ(g.witness, sim.witness);
      EXPECT_EQ(g.message, sim.message);
    }
    if (sim.status == Status::kFail) {
      ASSERT_TRUE(z3.witness.contains("wavefronts")) << z3.message;
      EXPECT_GT(z3.witness["wavefronts"], z3.witness["ideal"]);
    }
    CheckInput x = smem(c.buf, c.frag, c.bits, c.bytes, Engine::kAuto);
    x.cross_check = true;
    const CheckResult all = bank(x);
    EXPECT_EQ(all.status, sim.status) << all.message;
    EXPECT_EQ(all.message.find("ENGINES DISAGREE"), std::string::npos) << all.message;
    std::cout << "[ case " << i << ": " << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() << " ms ]\n";
  }
  // gf2 does not apply to a padded (non-power-of-two) pitch and says why.
  const CheckResult g = bank(smem(TL({I(32, 72), I(64, 1)}), row_frag, 16, 16, Engine::kGf2));
  EXPECT_EQ(g.status, Status::kUndecided);
  EXPECT_NE(g.message.find("not a power of two"), std::string::npos) << g.message;
}

// 2^24 fp16 elements, 2^18 rows of 128 B read a row per thread, 16 bytes at a time (2^16
// instructions): auto decides the swizzled and the plain buffer by GF(2), the padded ones by
// Z3 — none sweeps 2^24 points.
TEST(BankEngines, TwoToTheTwentyFourElementsWithoutASweep) {
  const TileLayout frag = TL({I(8192, 64), I(32, 1, "laneid"), I(8, 8), I(8, 1)});
  const CheckResult swz = bank(smem(CL(3, 3, 3, TL({I(262144, 64), I(64, 1)})), frag, 16, 16, Engine::kAuto));
  EXPECT_EQ(swz.status, Status::kPass) << swz.message;
  EXPECT_EQ(swz.engine, "gf2");
  EXPECT_NE(swz.message.find("65536 warp-wide"), std::string::npos) << swz.message;
  const CheckResult plain = bank(smem(TL({I(262144, 64), I(64, 1)}), frag, 16, 16, Engine::kAuto));
  ASSERT_EQ(plain.status, Status::kFail);
  EXPECT_EQ(plain.engine, "gf2");
  EXPECT_EQ(plain.witness["wavefronts"], 32);
  EXPECT_EQ(plain.witness["ideal"], 4);
  const CheckResult padded = bank(smem(TL({I(262144, 72), I(64, 1)}), frag, 16, 16, Engine::kAuto));
  EXPECT_EQ(padded.status, Status::kPass) << padded.message;
  EXPECT_EQ(padded.engine, "translation+sim");
  EXPECT_NE(padded.message.find("65536 warp-wide"), std::string::npos) << padded.message;
  const CheckResult bad = bank(smem(TL({I(262144, 80), I(64, 1)}), frag, 16, 16, Engine::kAuto));
  ASSERT_EQ(bad.status, Status::kFail) << bad.message;
  EXPECT_EQ(bad.engine, "translation+sim");
  EXPECT_GT(bad.witness["wavefronts"], bad.witness["ideal"]);
  // z3 on the full problem (the path auto took before the translation rule) agrees.
  EXPECT_EQ(bank(smem(TL({I(262144, 72), I(64, 1)}), frag, 16, 16, Engine::kZ3)).status, Status::kPass);
  EXPECT_EQ(bank(smem(TL({I(262144, 80), I(64, 1)}), frag, 16, 16, Engine::kZ3)).status, Status::kFail);
}

// The translation rule (bank_translate.hpp): where the instructions are translates of one row
// group's, auto decides that group and reports what the simulator of the whole buffer reports —
// the same verdict, message (instruction counts included) and witness. Where instructions
// interleave (two digits on one instruction range) the rule refuses and auto simulates all.
TEST(BankEngines, TranslationDecidesLikeTheWholeSimulation) {
  struct Case {
    Layout buf;
    TileLayout frag;
    int bits, bytes;
    bool translated;
  };
  // 256 fp16 rows, each thread one row 16 bytes at a time (instruction = 8 * row group + chunk).
  const TileLayout rows16 = TL({I(8, 64), I(32, 1, "laneid"), I(8, 8), I(8, 1)});
  // The same rows with the row group on the warp: warp w reads rows 32w..32w+31.
  const TileLayout warps16 = TL({I(8, 1, "warpid"), I(32, 1, "laneid"), I(8, 8), I(8, 1)});
  // fp32 columns of 32 rows x 64, 4 bytes: lane = row, instruction = column.
  const TileLayout cols4 = TL({I(4, 1, "warpid"), I(32, 1, "laneid"), I(64, 1)});
  const std::vector<Case> cases = {
      {TL({I(256, 72), I(64, 1)}), rows16, 16, 16, true},                     // 144 B pitch: clean
      {TL({I(256, 80), I(64, 1)}), rows16, 16, 16, true},                     // 160 B: 2-way
      {TL({I(256, 68), I(64, 1)}), rows16, 16, 16, true},                     // 136 B: unaligned rows
      {TL({I(256, 72), I(64, 1)}, {}, {{"m", 8}}), warps16, 16, 16, true},   // a 16-byte offset
      {TL({I(256, 88), I(64, 1)}), warps16, 16, 16, true},                    // 176 B: clean
      {CL(3, 3, 3, TL({I(256, 72), I(64, 1)})), rows16, 16, 16, false},       // row group not whole periods
      {TL({I(128, 65), I(64, 1)}), cols4, 32, 4, true},                       // odd pitch: clean
      {TL({I(128, 66), I(64, 1)}), cols4, 32, 4, true},                       // even pitch: 2-way
      // Two digits on one instruction range (instruction = d0 + d1): no translation.
      {TL({I(2, 2048), I(2, 1024), I(32, 32), I(32, 1)}), TL({I(2, 32), I(2, 32), I(32, 1, "laneid"), I(32, 1)}), 32, 4,
       false},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    const Case& c = cases[i];
    const CheckResult sim = bank(smem(c.buf, c.frag, c.bits, c.bytes, Engine::kEnum));
    const CheckResult a = bank(smem(c.buf, c.frag, c.bits, c.bytes, Engine::kAuto));
    EXPECT_EQ(a.engine.rfind("translation+", 0) == 0, c.translated) << a.engine;
    EXPECT_EQ(a.status, sim.status) << a.message;
    EXPECT_EQ(a.message, sim.message);
    EXPECT_EQ(a.witness, sim.witness);
  }
}

// Padded 144-byte rows at 2^61 elements (2^55 rows, 2^53 instructions) and the 160-byte pitch
// that conflicts: decided on one row group, the counts scaled.
TEST(BankEngines, PaddedRowsAtTwoToTheSixtyOneElements) {
  const std::int64_t rows = std::int64_t{1} << 55;
  const TileLayout frag = TL({I(rows / 32, 64), I(32, 1, "laneid"), I(8, 8), I(8, 1)});
  const CheckResult ok = bank(smem(TL({I(rows, 72), I(64, 1)}), frag, 16, 16, Engine::kAuto));
  EXPECT_EQ(ok.status, Status::kPass) << ok.message;
  EXPECT_EQ(ok.engine, "translation+sim");
  EXPECT_NE(ok.message.find("9007199254740992 warp-wide 16-byte accesses"), std::string::npos) << ok.message;
  const CheckResult bad = bank(smem(TL({I(rows, 80), I(64, 1)}), frag, 16, 16, Engine::kAuto));
  ASSERT_EQ(bad.status, Status::kFail) << bad.message;
  EXPECT_EQ(bad.witness["warp"], 0);
  EXPECT_EQ(bad.witness["instruction"], 0);
  EXPECT_EQ(bad.witness["wavefronts"], 8);
  EXPECT_EQ(bad.witness["ideal"], 4);
}

}  // namespace
}  // namespace tirx::prove
