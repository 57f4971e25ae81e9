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
TEST(PropertyCampaign, SmemWavefronts) { run("smem.wavefronts"); }

TEST(PropertyCampaign, EveryPropertyHasATest) {
  // Keeps this file in step with the registry: a new property needs a TEST above.
  EXPECT_EQ(properties().size(), 9u);
}

}  // namespace
}  // namespace tirx::props
