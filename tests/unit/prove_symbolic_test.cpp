// The symbolic engine (prove/symbolic.hpp): verdicts for all bindings on layouts with known
// answers, counterexample bindings re-checked concretely, and a cross-check against a sweep
// of the concrete checks on random parametric layouts.
#include <gtest/gtest.h>

#include <random>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/symbolic.hpp"

namespace tirx::prove {
namespace {

struct Case {
  std::string text;
  std::vector<ParamRange> params;
  Scope scope = Scope::kUnknown;
  std::string alloc;  // symbolic --alloc-elems, empty: none
};

SymbolicInput make(const Case& c) {
  static const MachineLimits limits = machine_limits(hw::load_target("sm_100a"));
  SymbolicInput in;
  std::vector<std::string> names;
  for (const ParamRange& p : c.params) names.push_back(p.name);
  in.text = c.text;
  in.layout = parse_symbolic_layout(c.text, names);
  in.params = c.params;
  if (!c.alloc.empty()) in.alloc_elems = parse_symbolic_int(c.alloc, names);
  in.at = [c](const Env& env) {
    CheckInput x;
    x.layout = parse_layout(c.text, env);
    x.text = c.text;
    x.scope = c.scope;
    x.machine = limits;
    if (!c.alloc.empty()) x.alloc_elems = parse_int_expr(c.alloc, env);
    return x;
  };
  return in;
}

const CheckResult& result(const std::vector<CheckResult>& rs, const std::string& id) {
  for (const auto& r : rs)
    if (r.id == id) return r;
  static CheckResult none;
  ADD_FAILURE() << "no result for " << id;
  return none;
}

TEST(Symbolic, ProvesForBillionsOfBindings) {
  const Case c{"S[(N, M):(M, 1)]", {{"N", 1, 1000000, 1}, {"M", 1, 100000, 1}}, Scope::kShared, "N*M"};
  const auto rs = run_symbolic(make(c));
  ASSERT_EQ(rs.size(), 3u);
  for (const auto& r : rs) {
    EXPECT_EQ(r.status, Status::kPass) << r.id << ": " << r.message;
    EXPECT_NE(r.message.find("100000000000 bindings"), std::string::npos) << r.message;
  }
  EXPECT_EQ(result(rs, "layout.injective").engine, "z3-symbolic(structural)");
}

TEST(Symbolic, OffByOneAllocationFailsWithARecheckedBinding) {
  const Case c{"S[(N, 64):(64, 1)]", {{"N", 8, 40960000, 8}}, Scope::kShared, "N*64 - 1"};
  const auto rs = run_symbolic(make(c));
  const CheckResult& b = result(rs, "layout.bounds");
  ASSERT_EQ(b.status, Status::kFail) << b.message;
  EXPECT_EQ(b.engine.rfind("z3-symbolic+", 0), 0u) << b.engine;
  const std::int64_t n = b.witness.at("params").at("N").get<std::int64_t>();
  EXPECT_EQ(n, 8);  // Z3's binding is minimized: the smallest failing N
  // The reported element is the last one, one past the allocation.
  EXPECT_EQ(b.witness.at("value").get<std::int64_t>(), n * 64 - 1);
  EXPECT_EQ(result(rs, "layout.injective").status, Status::kPass);
}

TEST(Symbolic, OverlapForSmallNFoundAndNotForLargeN) {
  // Stride N on the outer iter overlaps the 64-wide inner iter exactly when N < 64.
  auto rs = run_symbolic(make({"S[(N, 64):(N, 1)]", {{"N", 8, 4096, 8}}, Scope::kShared, ""}));
  const CheckResult& f = result(rs, "layout.injective");
  ASSERT_EQ(f.status, Status::kFail);
  EXPECT_LT(f.witness.at("params").at("N").get<std::int64_t>(), 64);
  EXPECT_EQ(f.witness.at("a").at("flat").get<std::int64_t>() == f.witness.at("b").at("flat").get<std::int64_t>(), false);
  rs = run_symbolic(make({"S[(N, 64):(N, 1)]", {{"N", 64, 40960000, 8}}, Scope::kShared, ""}));
  EXPECT_EQ(result(rs, "layout.injective").status, Status::kPass) << result(rs, "layout.injective").message;
}

TEST(Symbolic, FullDigitQueryWhenTheStructuralConditionDoesNotApply) {
  // 3a + 2b (a < 2, b < N) is odd exactly when a = 1: injective for every N, but for N >= 3 the
  // stride condition fails (3 <= 2*(N-1)), so the query over two points' digits decides.
  auto rs = run_symbolic(make({"S[(2, N):(3, 2)]", {{"N", 1, 1000, 1}}, Scope::kShared, ""}));
  const CheckResult& r = result(rs, "layout.injective");
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.engine, "z3-symbolic");
  // 4a + 2b: element (1, b) meets (0, b+2) once N >= 3.
  rs = run_symbolic(make({"S[(2, N):(4, 2)]", {{"N", 1, 1000, 1}}, Scope::kShared, ""}));
  const CheckResult& f = result(rs, "layout.injective");
  ASSERT_EQ(f.status, Status::kFail);
  EXPECT_GE(f.witness.at("params").at("N").get<std::int64_t>(), 3);
}

TEST(Symbolic, WellFormedFailsForAZeroExtent) {
  const auto rs = run_symbolic(make({"S[(N - 4, 8):(8, 1)]", {{"N", 1, 100, 1}}, Scope::kShared, ""}));
  ASSERT_EQ(rs.size(), 1u);  // nothing else is meaningful
  EXPECT_EQ(rs[0].id, "layout.well-formed");
  EXPECT_EQ(rs[0].status, Status::kFail);
  EXPECT_EQ(rs[0].witness.at("params").at("N").get<std::int64_t>(), 1);  // the first binding already fails
  const auto mid = run_symbolic(make({"S[(8 - N % 9, 8):(8, 1)]", {{"N", 0, 7, 1}}, Scope::kShared, ""}));
  EXPECT_EQ(mid[0].status, Status::kPass) << mid[0].message;
  const auto late = run_symbolic(make({"S[(8 - N % 9, 8):(8, 1)]", {{"N", 0, 20, 1}}, Scope::kShared, ""}));
  ASSERT_EQ(late[0].status, Status::kFail);
  EXPECT_EQ(late[0].witness.at("params").at("N").get<std::int64_t>(), 8);  // the smallest with N % 9 == 8
}

TEST(Symbolic, TmemColumnsAndSwizzleFootprint) {
  auto rs = run_symbolic(make({"S[(N//32, 32):(32@TCol, 1@TLane)]", {{"N", 32, 40960, 32}}, Scope::kTmem, ""}));
  const CheckResult& b = result(rs, "layout.bounds");
  ASSERT_EQ(b.status, Status::kFail);
  EXPECT_EQ(b.witness.at("axis"), "TCol");
  EXPECT_EQ(b.witness.at("params").at("N").get<std::int64_t>(), 544);  // the first N with 17 column groups
  rs = run_symbolic(make({"ComposeLayout(3, 3, 3, S[(R, 64):(64, 1)])", {{"R", 1, 100000, 1}}, Scope::kShared, "R*64"}));
  for (const auto& r : rs) EXPECT_EQ(r.status, Status::kPass) << r.id << ": " << r.message;
  // A view whose m offset is not period-aligned pushes swizzled addresses past the allocation.
  rs = run_symbolic(make({"ComposeLayout(3, 3, 3, S[(R, 64):(64, 1)] + 32)", {{"R", 8, 64, 8}}, Scope::kShared, "R*64"}));
  EXPECT_EQ(result(rs, "layout.bounds").status, Status::kFail);
}

TEST(Symbolic, TheFailingBindingIsMinimizedInParamOrder) {
  // m reaches (N-1)*(M+1) + M-1 = N*M + N - 2 >= N*M exactly when N >= 2 (any M): the smallest
  // N is 2, then the smallest M is 1 (Z3 itself named e.g. N=762060, M=91001).
  const Case nm{"S[(N, M):(M + 1, 1)]", {{"N", 1, 1000000, 1}, {"M", 1, 100000, 1}}, Scope::kShared, "N*M"};
  const auto rs = run_symbolic(make(nm));
  const CheckResult& b = result(rs, "layout.bounds");
  ASSERT_EQ(b.status, Status::kFail);
  EXPECT_EQ(b.witness.at("params").at("N").get<std::int64_t>(), 2);
  EXPECT_EQ(b.witness.at("params").at("M").get<std::int64_t>(), 1);
}

TEST(Symbolic, TooLargeValuesAreNotSymbolic) {
  EXPECT_THROW((void)run_symbolic(make({"S[(N, N):(N*N*N, 1)]", {{"N", 1, 4000000, 1}}, Scope::kShared, ""})),
               NotSymbolic);
}

// Random parametric layouts: every symbolic verdict equals the verdict of the concrete checks
// swept over all bindings (a symbolic fail names a binding where the concrete check fails).
TEST(Symbolic, AgreesWithASweepOnRandomLayouts) {
  std::mt19937 rng(7);
  const std::vector<std::string> ext = {"N", "2", "3", "N+1", "N//2+1", "4", "8"};
  const std::vector<std::string> st = {"N", "1", "2", "3", "4", "N*2", "N+3", "8", "0", "-2"};
  auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
  int fails = 0, passes = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::string e, s;
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < n; ++k) {
      e += (k ? ", " : "") + pick(ext);
      s += (k ? ", " : "") + pick(st);
    }
    Case c{"S[(" + e + "):(" + s + ")]", {{"N", 1, 12, 1}}, Scope::kShared, rng() % 2 ? "N*16" : ""};
    const auto rs = run_symbolic(make(c));
    const SymbolicInput in = make(c);
    for (const auto& r : rs) {
      ASSERT_NE(r.status, Status::kUndecided) << c.text << " " << r.id << ": " << r.message;
      bool swept_fail = false;
      for (std::int64_t v = 1; v <= 12; ++v) {
        const CheckInput x = in.at({{"N", v}});
        for (const CheckResult& cr : run_all(x))
          if (cr.id == r.id) swept_fail = swept_fail || cr.status == Status::kFail;
      }
      if (r.id == "layout.well-formed") continue;  // every extent here is >= 1
      EXPECT_EQ(r.status == Status::kFail, swept_fail) << c.text << " " << r.id << ": " << r.message;
      (r.status == Status::kFail ? fails : passes)++;
    }
  }
  EXPECT_GT(fails, 10);
  EXPECT_GT(passes, 10);
}

}  // namespace
}  // namespace tirx::prove
