// The property campaign (include/tirx_verify/props/properties.hpp) under ctest: one test per
// property, each with its bounded case count (Property::ctest_cases). RC_PARAMS works as for
// any RapidCheck test: RC_PARAMS="seed=42 max_success=5000" raises the count for a longer run
// and fixes the seed. A failure prints the shrunk counterexample, its `tirx-verify` command
// line and the `tirx-verify fuzz` command that replays the same cases.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/props/generators.hpp"
#include "tirx_verify/props/properties.hpp"

namespace tirx::props {
namespace {

void run(std::string_view name) {
  const Property* p = find_property(name);
  ASSERT_NE(p, nullptr) << name;
  const rc::detail::TestParams& cfg = rc::detail::configuration().testParams;
  const char* env = std::getenv("RC_PARAMS");
  const bool count_given = env && std::string(env).find("max_success") != std::string::npos;
  RunOptions opt;
  opt.seed = cfg.seed;
  opt.cases = count_given ? cfg.maxSuccess : p->ctest_cases;
  opt.max_size = cfg.maxSize;
  const RunResult r = run_property(*p, opt);
  if (r.passed) {
    EXPECT_EQ(r.cases, opt.cases);
    std::string tags;
    for (const auto& [t, n] : r.distribution) tags += "  " + t + ": " + std::to_string(n) + "\n";
    std::cout << name << ": " << r.cases << " cases passed (seed " << opt.seed << ")\n" << tags;
    return;
  }
  std::string ce;
  for (const auto& [type, value] : r.counterexample) ce += "  " + type + ": " + value + "\n";
  ADD_FAILURE() << name << " failed after " << r.cases << " cases:\n"
                << r.failure << "\ncounterexample:\n"
                << ce << "replay: tirx-verify fuzz --property " << name << " --seed " << opt.seed << " --cases "
                << opt.cases << " --max-size " << opt.max_size;
}

TEST(PropertyCampaign, NotationRoundtrip) { run("notation.roundtrip"); }
TEST(PropertyCampaign, CanonicalizeReplicas) { run("canonicalize.replicas"); }
TEST(PropertyCampaign, ApplyForms) { run("apply.forms"); }
TEST(PropertyCampaign, Tcgen05AtomVsSimulator) { run("tcgen05.atom_vs_sim"); }
TEST(PropertyCampaign, SwizzleBijection) { run("swizzle.bijection"); }
TEST(PropertyCampaign, TmaVsComposeLayout) { run("tma.vs_compose"); }
TEST(PropertyCampaign, ProveInjective) { run("prove.injective"); }
TEST(PropertyCampaign, ProveBounds) { run("prove.bounds"); }
TEST(PropertyCampaign, ProveEquivalent) { run("prove.equivalent"); }
TEST(PropertyCampaign, SmemWavefronts) { run("smem.wavefronts"); }
TEST(PropertyCampaign, SmemBankEngines) { run("smem.bank-engines"); }

TEST(PropertyCampaign, EveryPropertyHasATest) {
  // Keeps this file in step with the registry: a new property needs a TEST above.
  EXPECT_EQ(properties().size(), 11u);
}

}  // namespace
}  // namespace tirx::props

namespace tirx::props {
namespace {

// The runner on a property that must fail: the counterexample is shrunk to a small layout, the
// reproduce line is extracted, and the same seed gives the same result.
TEST(PropertyRunner, FailuresShrinkToSmallCounterexamplesAndReplay) {
  const Property big{"selftest.small_layouts", "every layout has at most 10 elements", 500, [] {
                       const Layout l = *gen_layout();
                       if (l.size() > 10)
                         RC_FAIL("too many elements\nreproduce: tirx-verify print " + shell_quote(print_layout(l)));
                     }};
  RunOptions opt;
  opt.seed = 7;
  opt.cases = 500;
  const RunResult r = run_property(big, opt);
  ASSERT_FALSE(r.passed);
  ASSERT_EQ(r.counterexample.size(), 1u);
  const Layout shrunk = parse_layout(r.counterexample[0].second);
  EXPECT_GT(shrunk.size(), 10);
  EXPECT_LE(shrunk.size(), 16) << r.counterexample[0].second;  // 12 = 3x4 or 2x2x3, or one 16
  EXPECT_TRUE(shrunk.tile().replica.empty()) << r.counterexample[0].second;
  EXPECT_TRUE(shrunk.tile().offset.empty()) << r.counterexample[0].second;
  EXPECT_FALSE(shrunk.is_compose()) << r.counterexample[0].second;
  EXPECT_EQ(r.reproduce, "tirx-verify print " + shell_quote(r.counterexample[0].second));
  EXPECT_EQ(r.failure, "too many elements");
  const RunResult again = run_property(big, opt);
  EXPECT_EQ(again.counterexample, r.counterexample);
  EXPECT_EQ(again.cases, r.cases);
}

TEST(PropertyRunner, ShellQuoting) {
  EXPECT_EQ(shell_quote("S[8:1]"), "'S[8:1]'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

}  // namespace
}  // namespace tirx::props
