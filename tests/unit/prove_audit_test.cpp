// The factory audit (prove/audit.hpp): its argument spaces hold the cases the findings name,
// each finding of docs/findings.md is reproduced with its witness, and grouping keeps the
// smallest argument set of a cause.
#include <gtest/gtest.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/audit.hpp"

namespace tirx::prove {
namespace {

const hw::Target& target() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

AuditContext context() {
  AuditContext ctx;
  ctx.target = &target();
  return ctx;
}

// The argument set `call` of factory `factory`, as the audit builds it (fails the test if the
// space does not hold it).
AuditCase find_case(std::string_view factory, std::string_view call) {
  const AuditFactory* f = find_audit_factory(factory);
  EXPECT_NE(f, nullptr) << factory;
  std::optional<AuditCase> found;
  std::int64_t n = 0;
  f->cases(context(), [&](AuditCase c) {
    ++n;
    if (c.call == call) found = std::move(c);
  });
  EXPECT_TRUE(found.has_value()) << call << " is not in the audited space of " << factory << " (" << n << " sets)";
  return found.value_or(AuditCase{});
}

const CheckResult* result_of(const std::vector<CheckResult>& rs, std::string_view id) {
  for (const CheckResult& r : rs)
    if (r.id == id) return &r;
  return nullptr;
}

// docs/findings.md F1: the issue's example. The pipe stage stride is M*4 = 16 bytes of TCol
// while one stage spans 32 (two K steps of 16), so stage 1 starts on stage 0's second K step.
TEST(Audit, SfTmemPipeDepthCollisionOfTheIssue) {
  const AuditCase c = find_case("sf_tmem_layout", "sf_tmem_layout(128, 8, 4, pipe_depth=2)");
  ASSERT_EQ(c.subjects.size(), 1u);
  const AuditSubject& s = c.subjects[0];
  ASSERT_TRUE(s.input.has_value()) << s.rejected;
  EXPECT_EQ(s.input->scope, Scope::kTmem);
  EXPECT_EQ(s.input->shape, (std::vector<std::int64_t>{2, 128, 8}));
  // The pool's allocation: TCol span 48 bytes = 12 columns -> the smallest tcgen05.alloc, 32.
  EXPECT_EQ(s.input->alloc_cols, 32);
  const auto rs = run_all(*s.input);
  const CheckResult* inj = result_of(rs, "layout.injective");
  ASSERT_NE(inj, nullptr);
  ASSERT_EQ(inj->status, Status::kFail) << inj->message;
  EXPECT_EQ(inj->witness["a"]["logical"], nlohmann::json({0, 0, 4}));
  EXPECT_EQ(inj->witness["b"]["logical"], nlohmann::json({1, 0, 0}));
  EXPECT_EQ(inj->witness["cell"], nlohmann::json({{"TLane", 0}, {"TCol", 16}}));
  EXPECT_EQ(s.command,
            "tirx-verify check 'sf_tmem_layout(128, 8, 4, pipe_depth=2)' --scope tmem --dtype float8_e8m0fnu "
            "--shape 2,128,8 --alloc-cols 32");
}

// The same construction with the stage stride TVM should use (the stage's whole TCol span,
// M*4*K_outer) is injective: the collision is the stride, not the audit's buffer.
TEST(Audit, SfTmemWithTheStageSpanAsStrideIsInjective) {
  const AuditCase c = find_case("sf_tmem_layout", "sf_tmem_layout(128, 8, 4, pipe_depth=2)");
  CheckInput in = *c.subjects[0].input;
  ASSERT_EQ(in.layout.tile().shard.front().stride, 16);  // TVM's M * epc
  in.layout.tile().shard.front().stride = 32;             // 2 K steps x 16
  EXPECT_EQ(result_of(run_all(in), "layout.injective")->status, Status::kPass);
}

// F2: a single row chunk (rows = 32) puts the pipe iter on TLane (the first shard iter's axis):
// stage 1 is 4 lanes down, colliding with lane 4 of stage 0 and leaving TMEM at stage 3's
// replica copies.
TEST(Audit, SfTmemOneRowChunkPipeOnTLane) {
  const AuditCase c = find_case("sf_tmem_layout", "sf_tmem_layout(32, 4, 4, pipe_depth=2)");
  const auto rs = run_all(*c.subjects[0].input);
  const CheckResult* inj = result_of(rs, "layout.injective");
  ASSERT_EQ(inj->status, Status::kFail);
  EXPECT_EQ(inj->witness["cell"]["TLane"], 4);
  EXPECT_EQ(inj->witness["b"]["logical"], nlohmann::json({1, 0, 0}));
  EXPECT_EQ(result_of(rs, "layout.bounds")->status, Status::kFail);
  // Without a pipe the same arguments are fine.
  const AuditCase ok = find_case("sf_tmem_layout", "sf_tmem_layout(32, 4, 4)");
  for (const CheckResult& r : run_all(*ok.subjects[0].input)) EXPECT_NE(r.status, Status::kFail) << r.id << r.message;
}

// The whole sweep of one factory: the groups, their smallest arguments and counts.
TEST(Audit, SfTmemGroups) {
  const auto reps = run_audit(context(), {"sf_tmem_layout"});
  ASSERT_EQ(reps.size(), 1u);
  const AuditFactoryReport& r = reps[0];
  EXPECT_EQ(r.argument_sets, 8 * 3 * 16 * 3 * 5);
  EXPECT_TRUE(r.stopped.empty());
  ASSERT_EQ(r.groups.size(), 3u);
  EXPECT_EQ(r.groups[0].check, "layout.injective");
  EXPECT_EQ(r.groups[0].smallest, "sf_tmem_layout(32, 1, 1, pipe_depth=2)");
  EXPECT_EQ(r.groups[1].check, "layout.bounds");
  EXPECT_EQ(r.groups[2].check, "layout.injective");
  EXPECT_EQ(r.groups[2].smallest, "sf_tmem_layout(64, 3, 1, pipe_depth=2)");
  // rows 32 with pipe_depth >= 2: 3 x 16 x 3 x 3 argument sets.
  EXPECT_EQ(r.groups[0].count, 432);
  EXPECT_EQ(r.groups[1].count, 432);
  // No argument set without a pipe, or with pipe_depth 1, fails.
  EXPECT_EQ(r.failing_sets, r.groups[0].count + r.groups[2].count);
}

TEST(Audit, FactoriesWithoutFindings) {
  for (const char* f : {"sf_smem_layout", "tmem_datapath_layout", "tmem_mma_operand_layout", "mma_shared_layout"}) {
    const auto reps = run_audit(context(), {f});
    ASSERT_EQ(reps.size(), 1u);
    EXPECT_GT(reps[0].argument_sets, 0) << f;
    EXPECT_EQ(reps[0].failing_sets, 0) << f << ": " << (reps[0].groups.empty() ? "" : reps[0].groups[0].result.message);
    EXPECT_EQ(reps[0].undecided_sets, 0) << f;
  }
}

// F3: the 128-row .16x*b fragments at the largest Table 49 .num hold 256 registers per thread.
TEST(Audit, Tcgen05AtomRegisterBudget) {
  const auto reps = run_audit(context(), {"tcgen05_atom_layout"});
  ASSERT_EQ(reps[0].groups.size(), 1u);
  const AuditGroup& g = reps[0].groups[0];
  EXPECT_EQ(g.check, "layout.bounds");
  EXPECT_EQ(g.severity, Severity::kWarning);
  EXPECT_EQ(g.count, 6);
  EXPECT_EQ(g.role, "fragment");
  EXPECT_EQ(g.result.witness["value"], 255);  // register slot 255: the 256th register
  // Every fragment reads its data path correctly (tmem.partition and tmem.datapath pass).
  EXPECT_EQ(reps[0].subjects, 258);
}

// F4: wg_local_layout validates nothing; rows past 128 leave the warpgroup.
TEST(Audit, WgLocalRowsPastTheWarpgroup) {
  const auto reps = run_audit(context(), {"wg_local_layout"});
  ASSERT_EQ(reps[0].groups.size(), 2u);
  const AuditGroup& rows = reps[0].groups[1];
  EXPECT_EQ(rows.smallest, "wg_local_layout(1, rows=144)");
  EXPECT_EQ(rows.result.witness["axis"], "tid_in_wg");
  EXPECT_EQ(rows.count, 8 * 256);  // rows 144..256: 8 values x every cols
}

TEST(Audit, CauseKey) {
  CheckResult r;
  r.id = "layout.injective";
  r.message = R"(elements [0,4,0] (replica 0) and [1,0,0] (replica 0) share the cell {"TCol":0,"TLane":4})";
  r.witness = {{"a", {{"logical", {0, 4, 0}}}}, {"b", {{"logical", {1, 0, 0}}}}};
  EXPECT_EQ(audit_cause(r), "elements [#,#,#] (replica #) and [#,#,#] (replica #) share the cell {...}; differing dims 0,1");
  r.id = "layout.bounds";
  r.message = "TLane = 131 for element [1,31,0] is outside [0, 128) (TMEM lanes)";
  EXPECT_EQ(audit_cause(r), "TLane = # for element [#,#,#] is outside [#, #) (TMEM lanes)");
}

TEST(Audit, UnknownFactoryIsUsageError) {
  try {
    run_audit(context(), {"sf_tmem"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "cli.usage");
    EXPECT_NE(e.message().find("sf_tmem_layout"), std::string::npos);
  }
}

TEST(Audit, BudgetStopsTheSweep) {
  Budget b(1e-6, INT64_MAX);
  AuditContext ctx = context();
  ctx.limits.budget = &b;
  const auto reps = run_audit(ctx, {"sf_tmem_layout", "wg_local_layout"});
  ASSERT_EQ(reps.size(), 2u);
  EXPECT_NE(reps[0].stopped.find("time limit"), std::string::npos) << reps[0].stopped;
  EXPECT_LT(reps[0].argument_sets, 5760);
  EXPECT_EQ(reps[1].stopped, reps[0].stopped);
  EXPECT_EQ(reps[1].argument_sets, 0);
}

}  // namespace
}  // namespace tirx::prove
