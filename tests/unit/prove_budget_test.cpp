// The budget inside the engines: the hashed owner map (src/prove/cell_table.hpp), the image
// sets of the equivalence witness (src/prove/image_sets.hpp: decoding agrees with streaming),
// the enumeration sweeps and run_all under a budget that runs out, and auto mode's refusal to
// fall back to an enumeration that cannot fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include "../../src/prove/cell_table.hpp"
#include "../../src/prove/image_sets.hpp"
#include "test_util.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/prove/check.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/engine.hpp"

namespace tirx::prove {
namespace {
using namespace tirx::test;

constexpr std::int64_t kMb = std::int64_t{1} << 20;

TEST(CellTable, FirstOwnerWinsAcrossGrowth) {
  CellTable t(2, /*expected=*/4, nullptr);  // starts small, grows many times
  for (std::int64_t i = 0; i < 100000; ++i) {
    const std::int64_t key[2] = {i * 7919, -i};
    EXPECT_EQ(t.insert(key, static_cast<std::uint64_t>(i)), CellTable::kEmpty);
  }
  EXPECT_EQ(t.size(), 100000u);
  for (std::int64_t i = 0; i < 100000; i += 997) {
    const std::int64_t key[2] = {i * 7919, -i};
    EXPECT_EQ(t.insert(key, 5000000), static_cast<std::uint64_t>(i));  // the first owner, kept
  }
  const std::int64_t other[2] = {7919, 0};  // shares one value with key 1 only
  EXPECT_EQ(t.insert(other, 1), CellTable::kEmpty);
  EXPECT_EQ(t.size(), 100001u);
}

TEST(CellTable, GrowthIsChargedAndStopsAtTheMemoryLimit) {
  Budget b(INFINITY, 16 * kMb);
  CellTable t(1, /*expected=*/std::int64_t{1} << 30, &b);  // the full table would not fit: starts at 2^16 slots
  EXPECT_LE(b.memory_charged_bytes(), 16 * 65536);
  std::int64_t inserted = 0;
  try {
    for (;; ++inserted) (void)t.insert(&inserted, static_cast<std::uint64_t>(inserted));
  } catch (const BudgetExceeded& e) {
    EXPECT_EQ(e.kind(), BudgetKind::kMemory);
    EXPECT_NE(e.where().find("the hashed owner map needs"), std::string::npos) << e.where();
  }
  EXPECT_LE(b.memory_charged_bytes(), 16 * kMb);
  // It got as far as the budget allowed and, the failed growth being undone, kept what it had.
  EXPECT_GT(inserted, 100000);
  EXPECT_EQ(t.size(), static_cast<std::size_t>(inserted));
}

// Brute force: is `img` among the copies of element `flat`?
bool contains_by_streaming(const Layout& l, std::int64_t flat, std::span<const Axis> axes, const Image& img) {
  ImageStream s(l, flat, axes);
  do
    if (s.image() == img) return true;
  while (s.advance());
  return false;
}

TEST(ImageSets, DecodingAgreesWithStreaming) {
  // Random small layouts with replicas on two axes (decodable or not, negative strides, an
  // offset, a swizzle); every element's every copy must be found, and perturbed images must be
  // answered the same way streaming answers them.
  std::mt19937_64 rng(20261201);
  const std::vector<Axis> axes = {Axis(AxisId::laneid), Axis(AxisId::m)};
  int decodable_cases = 0;
  for (int round = 0; round < 400; ++round) {
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
      return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    std::vector<Iter> shard = {I(pick(1, 4), pick(-3, 5), "laneid"), I(pick(1, 4), pick(-8, 8))};
    std::vector<Iter> replica;
    const int nrep = static_cast<int>(pick(1, 3));
    for (int k = 0; k < nrep; ++k) {
      // Powers of the previous reach make decodable sets; small strides make carries.
      const std::int64_t s = pick(0, 1) ? pick(-6, 6) : (pick(0, 1) ? 1 : -1) * (std::int64_t{1} << pick(0, 5));
      replica.push_back(I(pick(1, 4), s, pick(0, 1) ? "laneid" : "m"));
    }
    TileLayout t{shard, replica};
    if (pick(0, 1)) t.offset.add(Axis(AxisId::m), pick(-5, 40));
    const Layout l = pick(0, 3) == 0 ? Layout(CL(1, 2, 3, t)) : Layout(t);
    for (std::int64_t flat = 0; flat < l.size(); ++flat) {
      ImageStream s(l, flat, axes);
      do {
        ASSERT_TRUE(contains(l, flat, axes, s.image(), nullptr));
        for (std::int64_t dl : {-1, 1, 7})
          for (std::size_t i = 0; i < axes.size(); ++i) {
            Image other = s.image();
            other[i] += dl;
            ASSERT_EQ(contains(l, flat, axes, other, nullptr), contains_by_streaming(l, flat, axes, other))
                << print_layout(l) << " element " << flat << " image (" << other[0] << ", " << other[1] << ")";
          }
      } while (s.advance());
    }
    // Count the uniquely decodable ones so the test knows it exercised the decoding path.
    bool dec = true;
    for (const Axis ax : axes) {
      std::vector<Iter> its;
      for (const Iter& it : t.replica)
        if (it.axis == ax && it.extent > 1 && it.stride != 0) its.push_back(it);
      std::sort(its.begin(), its.end(), [](const Iter& x, const Iter& y) { return std::abs(x.stride) < std::abs(y.stride); });
      std::int64_t reach = 0;
      for (const Iter& it : its) {
        if (std::abs(it.stride) <= reach) dec = false;
        reach += (it.extent - 1) * std::abs(it.stride);
      }
    }
    decodable_cases += dec;
  }
  EXPECT_GT(decodable_cases, 40);
}

TEST(ImageSets, HugeSetsAreSearchedNotStreamed) {
  // 2^28 copies: decoding answers in O(iters); an expired budget proves no stream was walked.
  Budget expired(0.001, 64 * kMb);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const Layout a = TL({I(8, 1)}, {I(268435456, 2, "laneid")});
  const std::vector<Axis> axes = {Axis(AxisId::laneid), Axis(AxisId::m)};
  EXPECT_TRUE(contains(a, 3, axes, Image{2 * 268435455, 3}, &expired));
  EXPECT_FALSE(contains(a, 3, axes, Image{1, 3}, &expired));
  EXPECT_FALSE(contains(a, 3, axes, Image{2 * 268435456, 3}, &expired));
  EXPECT_FALSE(contains(a, 3, axes, Image{0, 4}, &expired));
  // Not decodable (three iters of stride 1): still found without walking the 2^36 copies (the
  // search tries only digits whose remainder the smaller iters can reach) ...
  const Layout b = TL({I(8, 1)}, {I(4096, 1, "laneid"), I(4096, 1, "laneid"), I(4096, 1, "laneid")});
  EXPECT_TRUE(contains(b, 0, axes, Image{6000, 0}, &expired));
  EXPECT_FALSE(contains(b, 0, axes, Image{3 * 4095 + 1, 0}, &expired));
  EXPECT_FALSE(contains(b, 0, axes, Image{-1, 0}, &expired));
  // ... but an odd value among even strides has to be ruled out digit by digit, and the search
  // polls the deadline.
  const Layout c = TL({I(8, 1)}, {I(4096, 2, "laneid"), I(4096, 2, "laneid"), I(4096, 2, "laneid")});
  EXPECT_THROW((void)contains(c, 0, axes, Image{8191, 0}, &expired), BudgetExceeded);
  EXPECT_FALSE(contains(c, 0, axes, Image{8191, 0}, nullptr));
}

TEST(EnumBudget, SweepsStopAtTheDeadlineAndTheMemoryLimit) {
  const Layout big = parse_layout("S[(2796202,2,3):(600000,3,2)]");  // hashed owner map, 1.7e7 points
  Budget expired(0.001, 4096 * kMb);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EngineLimits lim;
  lim.budget = &expired;
  try {
    (void)enumerate::injective(big, Scope::kShared, lim);
    FAIL() << "no BudgetExceeded";
  } catch (const BudgetExceeded& e) {
    EXPECT_EQ(e.kind(), BudgetKind::kTime);
    EXPECT_NE(e.where().find("of 1.7e7 points"), std::string::npos) << e.where();
  }
  Budget small(INFINITY, 32 * kMb);
  lim.budget = &small;
  try {
    (void)enumerate::injective(big, Scope::kShared, lim);
    FAIL() << "no BudgetExceeded";
  } catch (const BudgetExceeded& e) {
    EXPECT_EQ(e.kind(), BudgetKind::kMemory);
    EXPECT_NE(e.where().find("the hashed owner map needs"), std::string::npos) << e.where();
  }
  EXPECT_EQ(small.memory_charged_bytes(), 0);  // every charge returned
  // The cost estimate auto mode uses: hashed, 1.7e7 points.
  const enumerate::EnumCost c = enumerate::injective_cost(big, Scope::kShared, EngineLimits{});
  EXPECT_EQ(c.points, 16777212);
  EXPECT_FALSE(c.dense);
  EXPECT_GT(c.seconds, 1.0);
}

TEST(EnumBudget, RunAllAnswersUndecidedNamingTheBudget) {
  CheckInput in;
  in.layout = parse_layout("S[(2796202,2,3):(600000,3,2)]");
  in.scope = Scope::kShared;
  in.engine = Engine::kEnum;
  Budget b(INFINITY, 100 * kMb);
  in.limits.budget = &b;
  const std::vector<CheckResult> rs = run_all(in);
  const auto inj = std::find_if(rs.begin(), rs.end(), [](const CheckResult& r) { return r.id == "layout.injective"; });
  ASSERT_NE(inj, rs.end());
  EXPECT_EQ(inj->status, Status::kUndecided);
  EXPECT_EQ(inj->engine, "budget");
  EXPECT_EQ(inj->witness["budget"], "memory");
  EXPECT_EQ(inj->message.rfind("memory limit of 100 MB reached in layout.injective (the hashed owner map needs ", 0), 0u)
      << inj->message;
  // The checks after it still ran: bounds by enumeration needs no table.
  const auto bounds = std::find_if(rs.begin(), rs.end(), [](const CheckResult& r) { return r.id == "layout.bounds"; });
  ASSERT_NE(bounds, rs.end());
  EXPECT_EQ(bounds->status, Status::kPass);
  EXPECT_EQ(b.memory_charged_bytes(), 0);
}

TEST(EnumBudget, AutoDoesNotFallBackToAnEnumerationThatCannotFit) {
  CheckInput in;
  in.layout = parse_layout("S[(2796202,2,3):(600000,3,2)]");
  in.scope = Scope::kShared;
  in.limits.z3_timeout_ms = 0;  // z3 gives up at once
  Budget b(1.0, 4096 * kMb);    // 1 s: the hashed sweep is estimated at several seconds
  in.limits.budget = &b;
  const CheckResult r = find_check("layout.injective")->run(in);
  EXPECT_EQ(r.status, Status::kUndecided);
  EXPECT_NE(r.message.find("enum: not run: enumerating 1.7e7 points takes about"), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find("time limit of 1 s reached"), std::string::npos) << r.message;  // decided before it
}

}  // namespace
}  // namespace tirx::prove
