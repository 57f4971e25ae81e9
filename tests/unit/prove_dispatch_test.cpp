// Engine selection: what auto picks, what a forced engine does when it cannot decide, and that
// --cross-check fails loudly when engines disagree.
#include <gtest/gtest.h>

#include "../../src/prove/checks_internal.hpp"
#include "test_util.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::prove {
namespace {
using namespace tirx::test;

CheckInput input(Layout l, Scope scope = Scope::kShared) {
  CheckInput in;
  in.layout = std::move(l);
  in.scope = scope;
  in.elem_bits = 32;
  return in;
}

TEST(Dispatch, EngineNames) {
  for (Engine e : {Engine::kAuto, Engine::kEnum, Engine::kGf2, Engine::kZ3}) EXPECT_EQ(parse_engine(engine_name(e)), e);
  EXPECT_THROW(parse_engine("sat"), InputError);
}

TEST(Dispatch, AutoPicksTheCheapestEngineThatDecides) {
  // Strides that clear each other's reach: the structural condition proves it in O(iters).
  EXPECT_EQ(check_injective(input(TL({I(60, 64), I(60, 1)}))).engine, "structural");
  // Power-of-two and carry-free (a collision through a stride-0 replica): gf2.
  EXPECT_EQ(check_injective(input(TL({I(8, 1)}, {I(2, 0)}))).engine, "gf2");
  // Not power-of-two, below the crossover: enumeration (3600 points, rows overlapping by one).
  CheckInput in = input(TL({I(60, 59), I(60, 1)}));
  const CheckResult e = check_injective(in);
  EXPECT_EQ(e.engine, "enum");
  EXPECT_EQ(e.status, Status::kFail);
  // Above the crossover (lowered here): Z3.
  in.limits.enum_crossover_points = 100;
  const CheckResult z = check_injective(in);
  EXPECT_EQ(z.engine, "z3");
  EXPECT_EQ(z.status, Status::kFail);
  // Z3 out of budget: auto falls back to enumeration when the sweep fits.
  in.limits.z3_timeout_ms = 0;
  const CheckResult f = check_injective(in);
  EXPECT_EQ(f.engine, "enum");
  EXPECT_EQ(f.status, Status::kFail);
  EXPECT_EQ(f.witness, e.witness);
  // Nothing fits: undecided, naming every engine's reason.
  in.limits.max_enumeration_points = 10;
  const CheckResult u = check_injective(in);
  EXPECT_EQ(u.status, Status::kUndecided);
  EXPECT_NE(u.message.find("gf2: shard iter 1 has extent 60"), std::string::npos) << u.message;
  EXPECT_NE(u.message.find("z3 timeout"), std::string::npos) << u.message;
  EXPECT_NE(u.message.find("max_enumeration_points=10"), std::string::npos) << u.message;
}

TEST(Dispatch, CrossCheckComparesTheStructuralVerdictToo) {
  CheckInput in = input(TL({I(60, 64), I(60, 1)}));
  in.cross_check = true;
  const CheckResult r = check_injective(in);
  EXPECT_EQ(r.status, Status::kPass);
  EXPECT_EQ(r.engine, "structural+enum+z3");
}

TEST(Dispatch, BoundsAutoUsesIntervalsAndAnEngineForTheSwizzle) {
  EXPECT_EQ(check_bounds(input(TL({I(128, 1, "TLane"), I(512, 1, "TCol")}), Scope::kTmem)).engine, "interval");
  // A swizzle keeps m in its aligned block (64 elements for M=3, B=3): m in [0, 511] rounds
  // out to [0, 511], inside the footprint, so intervals decide alone.
  const CheckResult inside = check_bounds(input(CL(3, 3, 3, TL({I(8, 64), I(64, 1)}))));
  EXPECT_EQ(inside.engine, "interval");
  EXPECT_EQ(inside.status, Status::kPass);
  EXPECT_NE(inside.message.find("aligned 64-element block, all in [0, 511]"), std::string::npos) << inside.message;
  // Footprints the widened interval overshoots go to an engine, which finds the escape.
  const CheckResult gf2 = check_bounds(input(CL(3, 3, 3, TL({I(8, 64), I(32, 1)}))));
  EXPECT_EQ(gf2.engine, "interval+gf2");
  EXPECT_EQ(gf2.status, Status::kFail);
  // The property campaign's counterexample to OR-ing the field into m's maximum (swizzle_inner
  // False: bit 4 of m is XORed into bit 8; m = 16 swizzles to 272 > 256 | 256): the block bound
  // [0, 511] does not fit [0, 257), so an engine decides and finds the escape.
  const CheckResult escape =
      check_bounds(input(CL(4, 1, 4, TL({I(16, 4), I(1, 1), I(1, 1)}, {I(2, 4), I(4, 64)}), false)));
  EXPECT_EQ(escape.status, Status::kFail) << escape.message;
  EXPECT_NE(escape.engine, "interval");
  const CheckResult en = check_bounds(input(CL(3, 3, 3, TL({I(8, 64), I(48, 1)}))));
  EXPECT_EQ(en.engine, "interval+enum");
  EXPECT_EQ(en.status, Status::kFail);
}

TEST(Dispatch, ForcedEngineThatCannotDecideIsUndecided) {
  CheckInput in = input(TL({I(3, 5), I(5, 1)}));
  in.engine = Engine::kGf2;
  const CheckResult r = check_injective(in);
  EXPECT_EQ(r.status, Status::kUndecided);
  EXPECT_EQ(r.engine, "gf2");
  EXPECT_EQ(r.message, "gf2 cannot decide: shard iter 1 has extent 5, not a power of two");
}

TEST(Dispatch, CrossCheckFailsLoudlyOnDisagreement) {
  const CheckInput in = [] {
    CheckInput i = input(TL({I(8, 1)}));
    i.cross_check = true;
    return i;
  }();
  // A deliberately wrong "gf2" that claims a collision no one else sees.
  auto attempt = [](Engine e) {
    CheckResult r;
    r.id = "layout.injective";
    r.engine = std::string(engine_name(e));
    r.status = e == Engine::kGf2 ? Status::kFail : Status::kPass;
    r.message = e == Engine::kGf2 ? "made-up collision" : "distinct";
    if (e == Engine::kGf2) r.witness = {{"cell", {{"m", 3}}}};
    return r;
  };
  const CheckResult r =
      dispatch(in, {Engine::kGf2, Engine::kEnum, Engine::kZ3}, {Engine::kEnum, Engine::kGf2, Engine::kZ3}, attempt);
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_NE(r.message.find("ENGINES DISAGREE"), std::string::npos);
  EXPECT_NE(r.message.find("gf2 fail"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("enum pass"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("z3 pass"), std::string::npos) << r.message;
  ASSERT_EQ(r.witness["engines"].size(), 3u);
  EXPECT_EQ(r.witness["engines"][1]["engine"], "gf2");
  EXPECT_EQ(r.witness["engines"][1]["witness"]["cell"]["m"], 3);
}

TEST(Dispatch, AWitnessThatDoesNotRecheckIsNeverReported) {
  CheckResult r;
  r.engine = "z3";
  r.status = Status::kFail;
  const CheckResult w = witness_rejected(r, "the points differ on m");
  EXPECT_EQ(w.status, Status::kUndecided);
  EXPECT_NE(w.message.find("does not re-check"), std::string::npos);
}

}  // namespace
}  // namespace tirx::prove
