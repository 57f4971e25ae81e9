// The swizzle-is-a-bijection fact where it decides a check (docs/performance.md "Which rule
// decided what"): layout.equivalent of two ComposeLayouts with one swizzle compares the tiles;
// the symbolic injectivity query compares tile values and the symbolic swizzled footprint is
// proved by the period rule — each agreeing with the direct encodings of the swizzled form.
#include <gtest/gtest.h>

#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/prove/equivalent.hpp"
#include "tirx_verify/prove/symbolic.hpp"

namespace tirx::prove {
namespace {

TEST(SwizzleBijection, EquivalenceOfTwoSwizzledLayoutsComparesTheTiles) {
  // 2^46 points: the same map written with the row split in two; and one with two digits swapped.
  const Layout a = parse_layout("ComposeLayout(3, 3, 3, S[(1099511627776, 64):(64, 1)])");
  const Layout b = parse_layout("ComposeLayout(3, 3, 3, S[(1099511627776, 8, 8):(64, 8, 1)])");
  const Layout c = parse_layout("ComposeLayout(3, 3, 3, S[(1099511627776, 8, 8):(64, 1, 8)])");
  CheckResult r = equivalent(a, b);
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.engine.rfind("swizzle-bijection+", 0), 0u) << r.engine;
  r = equivalent(a, c);
  ASSERT_EQ(r.status, Status::kFail) << r.message;
  EXPECT_EQ(r.engine.rfind("swizzle-bijection+", 0), 0u) << r.engine;
  // The witness is re-evaluated on the swizzled layouts: element 1 is m = 1 vs m = 8 before the
  // swizzle, and stays different after it.
  const std::int64_t flat = r.witness.at("element").at("flat").get<std::int64_t>();
  EXPECT_NE(a.apply(flat), c.apply(flat));
  // Forced engines and --cross-check run on the swizzled forms and agree (small sizes).
  const Layout a2 = parse_layout("ComposeLayout(3, 3, 3, S[(64, 64):(64, 1)])");
  const Layout b2 = parse_layout("ComposeLayout(3, 3, 3, S[(64, 8, 8):(64, 8, 1)])");
  const Layout c2 = parse_layout("ComposeLayout(3, 3, 3, S[(64, 8, 8):(64, 1, 8)])");
  EquivalenceOptions cross;
  cross.cross_check = true;
  EXPECT_EQ(equivalent(a2, b2, std::nullopt, cross).status, Status::kPass);
  EXPECT_EQ(equivalent(a2, c2, std::nullopt, cross).status, Status::kFail);
  // Different swizzles: the rule does not apply.
  const Layout d = parse_layout("ComposeLayout(2, 3, 3, S[(64, 64):(64, 1)])");
  r = equivalent(a2, d);
  EXPECT_EQ(r.status, Status::kFail) << r.message;
  EXPECT_EQ(r.engine.find("swizzle-bijection"), std::string::npos) << r.engine;
}

SymbolicInput shared_input(const std::string& text, const std::vector<ParamRange>& params, const std::string& alloc) {
  std::vector<std::string> names;
  for (const ParamRange& p : params) names.push_back(p.name);
  SymbolicInput in;
  in.text = text;
  in.layout = parse_symbolic_layout(text, names);
  in.params = params;
  if (!alloc.empty()) in.alloc_elems = parse_symbolic_int(alloc, names);
  in.at = [text, alloc](const Env& env) {
    CheckInput x;
    x.layout = parse_layout(text, env);
    x.text = text;
    x.scope = Scope::kShared;
    if (!alloc.empty()) x.alloc_elems = parse_int_expr(alloc, env);
    return x;
  };
  return in;
}

const CheckResult& get(const std::vector<CheckResult>& rs, const std::string& id) {
  for (const auto& r : rs)
    if (r.id == id) return r;
  static CheckResult none;
  ADD_FAILURE() << "no " << id;
  return none;
}

TEST(SwizzleBijection, SymbolicQueriesDoNotEncodeTheXorWhereTheRuleDecides) {
  // The family at 51-bit terms: injectivity on the tile over integers, the footprint
  // failure (R=2: the 512-element period does not tile a 272-element buffer) found at a sample
  // binding and minimized.
  auto rs = run_symbolic(shared_input("ComposeLayout(3, 3, 3, S[(R_, 8, 9):(144, 9, 8)])", {{"R_", 1, 1000000000000, 1}}, ""));
  const CheckResult& inj = get(rs, "layout.injective");
  EXPECT_EQ(inj.status, Status::kPass) << inj.message;
  EXPECT_NE(inj.message.find("decided on the tile"), std::string::npos) << inj.message;
  EXPECT_NE(inj.message.find("integer"), std::string::npos) << inj.message;
  const CheckResult& bnd = get(rs, "layout.bounds");
  ASSERT_EQ(bnd.status, Status::kFail) << bnd.message;
  EXPECT_EQ(bnd.witness.at("params").at("R_").get<std::int64_t>(), 2);
  // Whole periods: the rule proves the footprint for every multiple of 8 rows.
  rs = run_symbolic(shared_input("ComposeLayout(3, 3, 3, S[(R_, 64):(64, 1)])", {{"R_", 8, 1000000000000, 8}}, "R_*64"));
  EXPECT_EQ(get(rs, "layout.bounds").status, Status::kPass) << get(rs, "layout.bounds").message;
  // Not whole periods at R_ < 8: the XOR query decides those bindings (the swizzle keeps a single
  // row inside its 64 elements: no row bits to XOR in), still a pass.
  rs = run_symbolic(shared_input("ComposeLayout(3, 3, 3, S[(R_, 64):(64, 1)])", {{"R_", 1, 1000000000000, 1}}, "R_*64"));
  EXPECT_EQ(get(rs, "layout.bounds").status, Status::kPass) << get(rs, "layout.bounds").message;
  // A 72-element row pitch: the swizzled addresses of the last rows leave R_*72 for R_ = 1.
  rs = run_symbolic(shared_input("ComposeLayout(3, 3, 3, S[(R_, 64):(72, 1)])", {{"R_", 1, 100000, 1}}, "R_*72"));
  EXPECT_EQ(get(rs, "layout.bounds").status, Status::kFail);
}

}  // namespace
}  // namespace tirx::prove
