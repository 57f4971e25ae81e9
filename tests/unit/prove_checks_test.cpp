// The enumeration-backed checks: verdicts and witnesses on small layouts whose answer is known.
#include <gtest/gtest.h>

#include <set>

#include "test_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {
namespace {
using namespace tirx::test;

MachineLimits sm100() {
  // The limits of models/targets/sm_100a.json, read through the same path the CLI uses.
  static const MachineLimits m = machine_limits(hw::load_target("sm_100a"));
  return m;
}

CheckInput input(Layout l, Scope scope, std::vector<std::int64_t> shape = {}, int bits = 32) {
  CheckInput in;
  in.layout = std::move(l);
  in.scope = scope;
  if (!shape.empty()) in.shape = shape;
  in.elem_bits = bits;
  in.dtype = bits == 16 ? "float16" : bits == 8 ? "uint8" : "float32";
  in.machine = sm100();
  return in;
}

CheckResult run(std::string_view id, const CheckInput& in) { return find_check(id)->run(in); }

TEST(Injective, LayoutDIsInjective) {
  const auto r = run("layout.injective", input(TL({I(128, 1, "TLane"), I(512, 1, "TCol")}), Scope::kTmem, {128, 512}));
  EXPECT_EQ(r.status, Status::kPass) << r.message;
}

TEST(Injective, OverlappingStridesGiveWitness) {
  // S[(4,4):(2,1)] on m: element (0,2) and (1,0) both land on m=2.
  const auto in = input(TL({I(4, 2), I(4, 1)}), Scope::kShared, {4, 4});
  const auto r = run("layout.injective", in);
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.witness["a"]["logical"], nlohmann::json({0, 2}));
  EXPECT_EQ(r.witness["b"]["logical"], nlohmann::json({1, 0}));
  EXPECT_EQ(r.witness["cell"]["m"], 2);
  // The witness is real: both elements evaluate to the cell.
  const std::vector<std::int64_t> a{0, 2}, b{1, 0}, sh{4, 4};
  EXPECT_EQ(in.layout.apply(a, sh).get(AxisId::m), 2);
  EXPECT_EQ(in.layout.apply(b, sh).get(AxisId::m), 2);
}

TEST(Injective, ReplicaCopiesCount) {
  // The corpus' replicated TMEM view S[(64,384):(1@TLane,1@TCol)] + R[2:64@TLane] is injective.
  EXPECT_EQ(run("layout.injective",
                input(TL({I(64, 1, "TLane"), I(384, 1, "TCol")}, {I(2, 64, "TLane")}), Scope::kTmem, {64, 384}))
                .status,
            Status::kPass);
  // R[2:32@TLane] on a 64-lane shard collides with the shard's own lanes 32..63.
  const auto r = run("layout.injective",
                     input(TL({I(64, 1, "TLane"), I(8, 1, "TCol")}, {I(2, 32, "TLane")}), Scope::kTmem, {64, 8}));
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.witness["cell"]["TLane"], 32);
  // A zero-stride replica puts an element's two copies in one cell.
  const auto z = run("layout.injective", input(TL({I(8, 1)}, {I(2, 0)}), Scope::kShared, {8}));
  ASSERT_EQ(z.status, Status::kFail);
  EXPECT_EQ(z.witness["a"]["flat"], z.witness["b"]["flat"]);
}

TEST(Injective, LocalScopeUsesThreadAndSlot) {
  // wg_local_layout(16): S[(128,16):(1@tid_in_wg,1)] — one row per thread.
  EXPECT_EQ(run("layout.injective", input(TL({I(128, 1, "tid_in_wg"), I(16, 1)}), Scope::kLocal, {128, 16})).status,
            Status::kPass);
  // Two rows per thread in the same slots collide (thread 0 slot 0 holds rows 0 and 64).
  const auto r =
      run("layout.injective", input(TL({I(2, 0, "tid_in_wg"), I(64, 1, "tid_in_wg"), I(16, 1)}), Scope::kLocal,
                                    {128, 16}));
  // An undeclared stride-0 iter is a contraction: rows i and i+64 share every cell.
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.engine, "structural");
  EXPECT_EQ(r.witness["a"]["logical"], nlohmann::json({0, 0}));
  EXPECT_EQ(r.witness["b"]["logical"], nlohmann::json({64, 0}));
  EXPECT_EQ(r.witness["broadcast_iter"], 0);
  EXPECT_NE(r.message.find("shard iter 0 (2:0@tid_in_wg) has stride 0, an undeclared broadcast"), std::string::npos)
      << r.message;
  // Declared (broadcast() marks it, or the caller allows it): a read-only view passes and says so.
  const auto declared =
      run("layout.injective", input(TL({B(2, "tid_in_wg"), I(64, 1, "tid_in_wg"), I(16, 1)}), Scope::kLocal, {128, 16}));
  EXPECT_EQ(declared.status, Status::kPass);
  EXPECT_NE(declared.message.find("declared broadcast (read-only view, by the layout's factory): shard iter 0 (2:0@tid_in_wg)"),
            std::string::npos)
      << declared.message;
  EXPECT_NE(declared.message.find("2048 elements (1024 once the declared broadcast digits are fixed at 0)"),
            std::string::npos)
      << declared.message;
  auto allowed = input(TL({I(2, 0, "tid_in_wg"), I(64, 1, "tid_in_wg"), I(16, 1)}), Scope::kLocal, {128, 16});
  allowed.allow_broadcast = true;
  const auto a = run("layout.injective", allowed);
  EXPECT_EQ(a.status, Status::kPass);
  EXPECT_NE(a.message.find("by --allow-broadcast / the buffer's \"broadcast\"): shard iter 0 (2:0@tid_in_wg)"),
            std::string::npos)
      << a.message;
  const auto r2 = run("layout.injective",
                      input(TL({I(2, 32, "tid_in_wg"), I(64, 1, "tid_in_wg"), I(16, 1)}), Scope::kLocal, {128, 16}));
  ASSERT_EQ(r2.status, Status::kFail);
  EXPECT_EQ(r2.witness["a"]["logical"], nlohmann::json({32, 0}));
  EXPECT_EQ(r2.witness["b"]["logical"], nlohmann::json({64, 0}));
}

TEST(Injective, SwizzleKeepsInjectivity) {
  EXPECT_EQ(run("layout.injective", input(CL(3, 3, 3, TL({I(64, 64), I(4, 4096), I(64, 1)})), Scope::kShared,
                                          {64, 256}, 16))
                .status,
            Status::kPass);
}

TEST(Injective, UndecidedPastTheLimit) {
  auto in = input(TL({I(1024, 1000), I(1024, 1)}), Scope::kShared);  // structural test fails: enumerate
  in.limits.max_enumeration_points = 1000;
  in.engine = Engine::kEnum;  // auto would decide this power-of-two layout with gf2
  const auto r = run("layout.injective", in);
  EXPECT_EQ(r.status, Status::kUndecided);
  EXPECT_NE(r.message.find("max_enumeration_points"), std::string::npos);
}

TEST(Bounds, TmemLanesAndColumns) {
  EXPECT_EQ(run("layout.bounds", input(TL({I(128, 1, "TLane"), I(512, 1, "TCol")}), Scope::kTmem)).status,
            Status::kPass);
  // Layout F upper view written with a wrong offset: +32@TLane on lanes up to 111 -> 143.
  const auto r = run("layout.bounds", input(TL({I(4, 32, "TLane"), I(16, 1, "TLane"), I(32, 1, "TCol")}, {},
                                                {{"TLane", 32}}),
                                             Scope::kTmem, {64, 32}));
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.witness["axis"], "TLane");
  EXPECT_EQ(r.witness["value"], 143);
  EXPECT_EQ(r.witness["element"]["logical"], nlohmann::json({63, 0}));
  // fp16 in 128 allocated columns holds 256 element columns.
  auto in = input(TL({I(128, 1, "TLane"), I(256, 1, "TCol")}), Scope::kTmem, {}, 16);
  in.alloc_cols = 128;
  EXPECT_EQ(run("layout.bounds", in).status, Status::kPass);
  in.alloc_cols = 64;
  EXPECT_EQ(run("layout.bounds", in).status, Status::kFail);
}

TEST(Bounds, ThreadAxes) {
  const auto r = run("layout.bounds", input(TL({I(8, 8, "laneid"), I(8, 1)}), Scope::kLocal));
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.witness["value"], 56);
  EXPECT_EQ(run("layout.bounds", input(TL({I(-4 + 8, -1)}, {}, {{"m", 2}}), Scope::kShared)).status, Status::kFail);
}

TEST(Bounds, SwizzleEscapingItsBuffer) {
  // A dense (8,32) fp16 tile under the 128B swizzle stays inside its 256 elements (the swizzle
  // only permutes 16-byte chunks within 128-byte lines) ...
  EXPECT_EQ(run("layout.bounds", input(CL(3, 3, 3, TL({I(8, 32), I(32, 1)})), Scope::kShared, {8, 32}, 16)).status,
            Status::kPass);
  // ... but 64-byte rows at a 128-byte pitch (K smaller than the 128B atom) are moved into the
  // unused half and, for the last rows, past the end of the buffer (span 480).
  const auto bad = run("layout.bounds", input(CL(3, 3, 3, TL({I(8, 64), I(32, 1)})), Scope::kShared, {8, 32}, 16));
  ASSERT_EQ(bad.status, Status::kFail);
  EXPECT_EQ(bad.witness["note"], "swizzled address");
  EXPECT_GE(bad.witness["value"].get<std::int64_t>(), 480);
  EXPECT_EQ(bad.witness["range"], nlohmann::json({0, 480}));
}

// A swizzled register fragment: the swizzled register index must fit the register budget (255
// 32-bit registers), not only the swizzle periods the view touches. Shrunk counterexample of the
// 2026-11-30 campaign (prove.bounds, seed 20261130, case 22518), where the property's reference
// had left the budget out and every engine was right: the tile puts the one element's four
// copies at m = 2, 3, 18, 19; with swizzle_inner=False the field m[3:5] (2 for 18 and 19) is
// XORed into m[8:10], giving 530 and 531 — inside the period [0, 1024), past register 254.
TEST(Bounds, SwizzledRegisterIndexMustFitTheRegisterBudget) {
  const Layout l = CL(3, 2, 5, TL({I(1, 1), I(1, 1), I(1, 1), I(1, 1)}, {I(2, 1), I(2, 16)}, {{"m", 2}}), false);
  for (const bool cross : {false, true}) {
    CheckInput in = input(l, Scope::kLocal);
    in.cross_check = cross;
    const auto r = run("layout.bounds", in);
    ASSERT_EQ(r.status, Status::kFail) << r.message;
    EXPECT_EQ(r.witness["note"], "swizzled address");
    EXPECT_EQ(r.witness["range"], nlohmann::json({0, 255}));
    const std::int64_t v = r.witness["value"].get<std::int64_t>();
    EXPECT_TRUE(v == 530 || v == 531) << v;
  }
  // In shared memory there is no budget: the addresses stay inside the period they touch.
  EXPECT_EQ(run("layout.bounds", input(l, Scope::kShared)).status, Status::kPass);
}

TEST(SwizzleLegal, PerElementMustMatchDtype) {
  EXPECT_EQ(run("swizzle.legal", input(CL(3, 3, 3, TL({I(512, 1)})), Scope::kShared, {}, 16)).status, Status::kPass);
  const auto r = run("swizzle.legal", input(CL(3, 3, 3, TL({I(512, 1)})), Scope::kShared, {}, 32));
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.witness["params"]["expected_per_element"], 2);
  EXPECT_EQ(run("swizzle.legal", input(CL(3, 3, 3, TL({I(512, 1)}), false), Scope::kShared, {}, 16)).status,
            Status::kFail);
  EXPECT_EQ(run("swizzle.legal", input(TL({I(512, 1)}), Scope::kShared, {}, 16)).status, Status::kNotApplicable);
}

TEST(TmemAlloc, PowerOfTwoAndCapacity) {
  auto in = input(TL({I(128, 1, "TLane"), I(224, 1, "TCol")}), Scope::kTmem);
  EXPECT_EQ(run("tmem.alloc", in).witness["minimal_allocation"], 256);
  in.alloc_cols = 256;
  EXPECT_EQ(run("tmem.alloc", in).status, Status::kPass);
  in.alloc_cols = 128;
  EXPECT_EQ(run("tmem.alloc", in).status, Status::kFail);
  in.alloc_cols = 1024;
  EXPECT_EQ(run("tmem.alloc", in).status, Status::kFail);
  in.alloc_cols = 96;
  EXPECT_EQ(run("tmem.alloc", in).status, Status::kFail);
  // 8-bit scale factors: 4 per 32-bit column; TCol up to 15 -> 4 columns.
  auto sf = input(TL({I(4, 4, "TCol"), I(32, 1, "TLane"), I(4, 1, "TCol")}, {I(4, 32, "TLane")}), Scope::kTmem, {}, 8);
  EXPECT_EQ(run("tmem.alloc", sf).witness["needed_columns"], 4);
}

TEST(WellFormed, ShapeMustMatchAndAxesFitScope) {
  EXPECT_EQ(run("layout.well-formed", input(TL({I(8, 1)}), Scope::kShared, {2, 4})).status, Status::kPass);
  const auto r = run("layout.well-formed", input(TL({I(8, 1)}), Scope::kShared, {3, 4}));
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.witness["shape_elements"], 12);
  EXPECT_EQ(run("layout.well-formed", input(TL({I(8, 1, "TLane")}), Scope::kShared)).status, Status::kFail);
  EXPECT_EQ(run("layout.well-formed", input(TL({I(8, 1)}), Scope::kTmem)).status, Status::kFail);
  EXPECT_THROW(run("layout.well-formed", input(TL({I(0, 1)}), Scope::kShared)), InputError);
}

// TVM's verify_well_formed() raises when the thread axes do not form one scope chain (spec
// tirx_semantics (b)); the check fails with get_scope's message and the thread axes. Found by the
// 2026-11-30 property campaign: S[1:1@cbx] + 1@laneid passed this check although canonicalize
// (like TVM) rejects it.
TEST(WellFormed, ThreadAxesMustFormOneScopeChain) {
  const auto disconnected = run("layout.well-formed", input(TL({I(1, 1, "cbx")}, {}, {{"laneid", 1}}), Scope::kUnknown));
  EXPECT_EQ(disconnected.status, Status::kFail);
  EXPECT_NE(disconnected.message.find("disconnected scope chain"), std::string::npos) << disconnected.message;
  EXPECT_EQ(disconnected.witness["thread_axes"], nlohmann::json({"cbx", "laneid"}));
  // The spec's own example: wgid (warpgroup -> cta) is never reached from laneid (thread -> warp).
  const auto spec = run("layout.well-formed", input(TL({I(2, 2, "wgid"), I(8, 4, "laneid"), I(2, 1, "wgid"),
                                                        I(4, 1, "laneid"), I(2, 1)}),
                                                    Scope::kLocal));
  EXPECT_EQ(spec.status, Status::kFail);
  EXPECT_NE(spec.message.find("disconnected scope chain"), std::string::npos) << spec.message;
  const auto cyclic = run("layout.well-formed", input(TL({I(2, 1, "bx"), I(4, 1, "tx")}), Scope::kUnknown));
  EXPECT_EQ(cyclic.status, Status::kFail);
  EXPECT_NE(cyclic.message.find("cyclic scope chain"), std::string::npos) << cyclic.message;
  const auto conflicting = run("layout.well-formed", input(TL({I(4, 1, "warpid"), I(4, 1, "wid_in_wg")}), Scope::kUnknown));
  EXPECT_EQ(conflicting.status, Status::kFail);
  EXPECT_NE(conflicting.message.find("conflicting scopes"), std::string::npos) << conflicting.message;
  // One chain, with the middle link given by an offset: well-formed.
  EXPECT_EQ(run("layout.well-formed", input(TL({I(1, 1, "cbx")}, {}, {{"laneid", 1}, {"warpid", 1}}), Scope::kUnknown)).status,
            Status::kPass);
  EXPECT_EQ(run("layout.well-formed", input(TL({I(4, 1, "warpid"), I(32, 1, "laneid")}), Scope::kLocal)).status,
            Status::kPass);
}

TEST(Registry, IdsAreUniqueAndDescribed) {
  std::set<std::string_view> ids;
  for (const auto& c : checks()) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_FALSE(c.description.empty());
  }
  EXPECT_NE(find_check("layout.injective"), nullptr);
  EXPECT_EQ(find_check("nope"), nullptr);
}

}  // namespace
}  // namespace tirx::prove
