// The command budget (include/tirx_verify/layout/budget.hpp): memory charges, the deadline,
// the Pacer's progress text, count_text. No timing assertions beyond "a deadline that has
// certainly passed is reported" (the sleeps only make the clock move past it).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "tirx_verify/layout/budget.hpp"

namespace tirx {
namespace {

constexpr std::int64_t kMb = std::int64_t{1} << 20;

TEST(Budget, ChargesAreAccountedAndGivenBack) {
  Budget b(INFINITY, 100 * kMb);
  EXPECT_FALSE(b.has_deadline());
  EXPECT_EQ(b.memory_text(), "memory limit of 100 MB");
  {
    MemoryCharge c = b.charge(60 * kMb, "a table");
    EXPECT_EQ(b.memory_charged_bytes(), 60 * kMb);
    EXPECT_EQ(b.memory_left_bytes(), 40 * kMb);
    EXPECT_TRUE(b.fits(40 * kMb));
    EXPECT_FALSE(b.fits(40 * kMb + 1));
    MemoryCharge moved = std::move(c);  // the charge follows the move, it is not doubled
    EXPECT_EQ(b.memory_charged_bytes(), 60 * kMb);
    moved.grow(10 * kMb, "the table doubling");
    EXPECT_EQ(moved.bytes(), 70 * kMb);
    EXPECT_EQ(b.memory_charged_bytes(), 70 * kMb);
  }
  EXPECT_EQ(b.memory_charged_bytes(), 0);
}

TEST(Budget, AChargeThatDoesNotFitNamesTheLimitAndWhatWanted) {
  Budget b(INFINITY, 100 * kMb);
  MemoryCharge held = b.charge(64 * kMb, "first");
  try {
    (void)b.charge(128 * kMb, "the hashed owner map");
    FAIL() << "no BudgetExceeded";
  } catch (const BudgetExceeded& e) {
    EXPECT_EQ(e.kind(), BudgetKind::kMemory);
    EXPECT_EQ(e.limit(), "memory limit of 100 MB");
    EXPECT_EQ(e.where(), "the hashed owner map needs 128 MB, 36 MB left");
    EXPECT_EQ(e.describe("layout.injective"),
              "memory limit of 100 MB reached in layout.injective (the hashed owner map needs 128 MB, 36 MB left)");
    EXPECT_EQ(e.describe(""), "memory limit of 100 MB reached (the hashed owner map needs 128 MB, 36 MB left)");
  }
  // A failed charge takes nothing.
  EXPECT_EQ(b.memory_charged_bytes(), 64 * kMb);
  // Negative (overflowed) sizes count as too much, never as a refund.
  EXPECT_THROW((void)b.charge(-1, "an overflowed size"), BudgetExceeded);
  EXPECT_FALSE(b.fits(-1));
  EXPECT_EQ(b.memory_charged_bytes(), 64 * kMb);
  // A failed grow leaves the charge as it was.
  EXPECT_THROW(held.grow(40 * kMb, "more"), BudgetExceeded);
  EXPECT_EQ(held.bytes(), 64 * kMb);
}

TEST(Budget, NullBudgetIsUnlimited) {
  MemoryCharge c = charge(nullptr, INT64_MAX, "anything");
  EXPECT_EQ(c.bytes(), 0);
  EXPECT_NO_THROW(check_time(nullptr, [] { return std::string("x"); }));
  const Budget unlimited;
  EXPECT_FALSE(unlimited.has_deadline());
  EXPECT_TRUE(std::isinf(unlimited.seconds_left()));
  EXPECT_EQ(unlimited.memory_text(), "the machine's memory limit");
}

TEST(Budget, RefusesNonPositiveLimits) {
  EXPECT_THROW(Budget(0, kMb), std::invalid_argument);
  EXPECT_THROW(Budget(-1, kMb), std::invalid_argument);
  EXPECT_THROW(Budget(NAN, kMb), std::invalid_argument);
  EXPECT_THROW(Budget(1, 0), std::invalid_argument);
  const std::int64_t mb = Budget::default_memory_mb();
  EXPECT_GE(mb, 256);
  EXPECT_LE(mb, 4096);
}

TEST(Budget, APassedDeadlineThrowsWithTheLimitAndWhere) {
  Budget b(0.001, 100 * kMb);
  EXPECT_EQ(b.time_text(), "time limit of 0.001 s");
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(b.expired());
  EXPECT_EQ(b.seconds_left(), 0);
  try {
    b.check_time([] { return std::string("fuzz, 3 of 10 cases"); });
    FAIL() << "no BudgetExceeded";
  } catch (const BudgetExceeded& e) {
    EXPECT_EQ(e.kind(), BudgetKind::kTime);
    EXPECT_EQ(e.describe("fuzz"), "time limit of 0.001 s reached in fuzz (fuzz, 3 of 10 cases)");
  }
  EXPECT_EQ(Budget(60, kMb).time_text(), "time limit of 60 s");
}

TEST(Pacer, PollsEveryStrideAndReportsProgress) {
  Budget b(0.001, 100 * kMb);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  Pacer p(&b, "enumeration", 17000000.0);
  for (std::int64_t i = 1; i < Pacer::kStride; ++i) p.step();  // no clock read yet
  EXPECT_EQ(p.done(), Pacer::kStride - 1);
  try {
    p.step();
    FAIL() << "no BudgetExceeded at the 2^16th step";
  } catch (const BudgetExceeded& e) {
    EXPECT_EQ(e.where(), "enumeration, 65536 of 1.7e7 points");
  }
  // step(n) crossing a stride boundary polls too.
  Pacer q(&b, "bank conflicts", 100, "accesses");
  EXPECT_THROW(q.step(Pacer::kStride), BudgetExceeded);
  // Without a budget nothing is ever thrown.
  Pacer free(nullptr, "x", 1);
  EXPECT_NO_THROW(free.step(std::int64_t{1} << 40));
}

TEST(CountText, ShortForLargeCounts) {
  EXPECT_EQ(count_text(0), "0");
  EXPECT_EQ(count_text(65536), "65536");
  EXPECT_EQ(count_text(999999), "999999");
  EXPECT_EQ(count_text(1e6), "1.0e6");
  EXPECT_EQ(count_text(1234567890), "1.2e9");
  EXPECT_EQ(count_text(9.96e9), "1.0e10");
  EXPECT_EQ(count_text(4294967296.0), "4.3e9");
  EXPECT_EQ(count_text(INFINITY), "inf");
}

}  // namespace
}  // namespace tirx
