// The three engines (enum, gf2, z3) on the shared list of >= 40 layouts with known answers:
// each decides injectivity correctly when it applies, all applicable engines agree (also under
// --cross-check), witnesses re-check by direct evaluation, and gf2 reports exactly the
// enumeration's first collision.
#include <gtest/gtest.h>

#include "../../src/prove/checks_internal.hpp"
#include "prove_layouts.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/prove/check.hpp"
#include "tirx_verify/prove/engine.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/gf2.hpp"
#include "tirx_verify/prove/z3_engine.hpp"

namespace tirx::prove {
namespace {
using namespace tirx::test;

MachineLimits sm100() {
  // The limits of models/targets/sm_100a.json, read through the same path the CLI uses.
  static const MachineLimits m = machine_limits(hw::load_target("sm_100a"));
  return m;
}

CheckInput input(const ProveCase& c, Engine e, bool cross = false) {
  CheckInput in;
  in.layout = c.layout;
  in.scope = c.scope;
  in.elem_bits = c.bits;
  in.machine = sm100();
  in.engine = e;
  in.cross_check = cross;
  return in;
}

CheckResult run(std::string_view id, const CheckInput& in) { return find_check(id)->run(in); }

// The witness cell really is shared: evaluate both points independently of the engines.
void expect_collision(const ProveCase& c, const CheckResult& r) {
  ASSERT_EQ(r.status, Status::kFail) << c.name;
  const std::int64_t fa = r.witness["a"]["flat"], fb = r.witness["b"]["flat"];
  const std::int64_t ra = r.witness["a"]["replica"], rb = r.witness["b"]["replica"];
  EXPECT_TRUE(fa != fb || ra != rb) << c.name;
  std::vector<std::int64_t> da = c.layout.tile().split(fa), db = c.layout.tile().split(fb);
  const Coord ia = c.layout.images(da)[static_cast<std::size_t>(ra)];
  const Coord ib = c.layout.images(db)[static_cast<std::size_t>(rb)];
  for (auto& [axis, value] : r.witness["cell"].items()) {
    const Axis a = *Axis::from_name(axis);
    EXPECT_EQ(axis_value(ia, a), value.get<std::int64_t>()) << c.name << " " << axis;
    EXPECT_EQ(axis_value(ib, a), value.get<std::int64_t>()) << c.name << " " << axis;
  }
}

TEST(Engines, CaseListIsLargeEnough) {
  const auto cases = prove_cases();
  EXPECT_GE(cases.size(), 40u);
  int fails = 0, gf2 = 0;
  for (const auto& c : cases) fails += !c.injective, gf2 += c.gf2;
  EXPECT_GE(fails, 10);
  EXPECT_GE(gf2, 20);
  EXPECT_GE(static_cast<int>(cases.size()) - gf2, 10);
}

TEST(Engines, EachEngineDecidesInjectivityCorrectly) {
  for (const auto& c : prove_cases()) {
    for (Engine e : {Engine::kEnum, Engine::kGf2, Engine::kZ3}) {
      const CheckResult r = run("layout.injective", input(c, e));
      SCOPED_TRACE(c.name + " engine " + std::string(engine_name(e)) + ": " + r.message);
      if (e == Engine::kGf2 && !c.gf2) {
        EXPECT_EQ(r.status, Status::kUndecided);
        EXPECT_NE(r.message.find("gf2 cannot decide"), std::string::npos);
        continue;
      }
      EXPECT_EQ(r.engine, engine_name(e));
      if (c.injective) {
        EXPECT_EQ(r.status, Status::kPass);
        EXPECT_TRUE(r.witness.is_null());
      } else {
        expect_collision(c, r);
      }
    }
  }
}

TEST(Engines, GF2ApplicabilityMatchesTheCaseList) {
  for (const auto& c : prove_cases())
    EXPECT_EQ(!gf2::why_not_injective(c.layout, c.scope).has_value(), c.gf2) << c.name;
}

TEST(Engines, AutoAndCrossCheckAgree) {
  for (const auto& c : prove_cases()) {
    // The structural sufficient condition first, then gf2, then enumeration (all cases are below
    // the crossover).
    // The structural decisions: the stride condition proves, an undeclared stride-0 iter refutes.
    const bool contraction = contraction_iter(c.layout.tile()).has_value();
    const bool structural = contraction || injective_by_strides(c.layout.tile(), c.scope);
    EXPECT_TRUE(!contraction || !c.injective) << c.name;
    EXPECT_TRUE(contraction || !structural || c.injective) << c.name;
    const CheckResult a = run("layout.injective", input(c, Engine::kAuto));
    EXPECT_EQ(a.status, c.injective ? Status::kPass : Status::kFail) << c.name;
    // A ComposeLayout that the structural decisions leave open is decided on its tile (the
    // swizzle is a bijection of addresses): gf2 when the tile is GF(2)-linear.
    const bool compose = c.layout.is_compose();
    const bool tile_gf2 = !gf2::why_not_injective(Layout(c.layout.tile()), c.scope).has_value();
    EXPECT_EQ(a.engine, structural ? "structural"
                        : compose  ? std::string("swizzle-bijection+") + (tile_gf2 ? "gf2" : "enum")
                        : c.gf2    ? "gf2"
                                   : "enum")
        << c.name;
    const CheckResult x = run("layout.injective", input(c, Engine::kAuto, /*cross=*/true));
    EXPECT_EQ(x.status, a.status) << c.name << ": " << x.message;
    EXPECT_EQ(x.engine, std::string(structural ? "structural+" : "") + (c.gf2 ? "gf2+enum+z3" : "enum+z3")) << c.name;
    EXPECT_NE(x.message.find("cross-check"), std::string::npos);
    if (!c.injective) {
      expect_collision(c, x);
    }
  }
}

TEST(Engines, Gf2WitnessIsTheFirstCollisionInSweepOrder) {
  int compared = 0;
  for (const auto& c : prove_cases()) {
    if (c.injective || !c.gf2) continue;
    const auto g = gf2::injective(c.layout, c.scope);
    const auto e = enumerate::injective(c.layout, c.scope, EngineLimits{});
    ASSERT_EQ(g.status, Status::kFail);
    ASSERT_EQ(e.status, Status::kFail);
    EXPECT_EQ(*g.a, *e.a) << c.name;
    EXPECT_EQ(*g.b, *e.b) << c.name;
    ++compared;
  }
  EXPECT_GE(compared, 2);
}

TEST(Engines, BoundsAgreeAcrossEngines) {
  // Every case under every engine; verdicts must equal auto's (interval / interval+X).
  int failing = 0;
  for (const auto& c : prove_cases()) {
    const CheckResult a = run("layout.bounds", input(c, Engine::kAuto));
    ASSERT_TRUE(a.status == Status::kPass || a.status == Status::kFail) << c.name << a.message;
    failing += a.status == Status::kFail;
    for (Engine e : {Engine::kEnum, Engine::kGf2, Engine::kZ3}) {
      const CheckResult r = run("layout.bounds", input(c, e));
      if (r.status == Status::kUndecided) {
        EXPECT_EQ(e, Engine::kGf2) << c.name << r.message;
        continue;
      }
      EXPECT_EQ(r.status, a.status) << c.name << " " << engine_name(e) << ": " << r.message << " vs " << a.message;
      if (r.status == Status::kFail) {
        EXPECT_EQ(r.witness["axis"], a.witness["axis"]) << c.name;
      }
    }
    const CheckResult x = run("layout.bounds", input(c, Engine::kAuto, true));
    EXPECT_EQ(x.status, a.status) << c.name << x.message;
  }
  // Some cases leave their ranges (unknown-scope warpid offset 5 + replica 4: 10 >= 4? no range;
  // the 64-element-row swizzle escapes its span).
  EXPECT_GE(failing, 1);
}

}  // namespace
}  // namespace tirx::prove
