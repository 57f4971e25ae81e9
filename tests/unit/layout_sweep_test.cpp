// Sweep (layout/sweep.hpp) at the edges of int64: the odometer visits exactly the points apply()
// names and never computes a value outside them (found by fuzz_cli under UBSan: stepping past
// the last digit of S[2:-2^63] computed -2^63 + -2^63).
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/sweep.hpp"

namespace tirx {
namespace {

std::vector<std::int64_t> m_values(const char* text, bool replicas) {
  const Layout l = parse_layout(text);
  const Sweep sw(l.tile(), replicas);
  const int slot = sw.index_of(AxisId::m);
  std::vector<std::int64_t> out;
  sw.for_each([&](std::int64_t, std::int64_t, const std::int64_t* v) { out.push_back(v[slot]); });
  return out;
}

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kQuarter = std::int64_t{1} << 62;

TEST(Sweep, StridesAtTheInt64EdgeVisitExactlyTheirPoints) {
  EXPECT_EQ(m_values("S[2:-9223372036854775807-1]", false), (std::vector<std::int64_t>{0, kMin}));
  EXPECT_EQ(m_values("S[(2,2):(-4611686018427387904,4611686018427387904)]", false),
            (std::vector<std::int64_t>{0, kQuarter, -kQuarter, 0}));
  EXPECT_EQ(m_values("S[2:1] + R[2:-9223372036854775807-1]", true), (std::vector<std::int64_t>{0, kMin, 1, kMin + 1}));
  EXPECT_EQ(m_values("S[3:-4611686018427387904] + 9223372036854775807", false),
            (std::vector<std::int64_t>{9223372036854775807, 9223372036854775807 - kQuarter, -1}));
}

TEST(Sweep, OrdinaryOdometerOrder) {
  EXPECT_EQ(m_values("S[(2,3):(10,1)]", false), (std::vector<std::int64_t>{0, 1, 2, 10, 11, 12}));
  EXPECT_EQ(m_values("S[2:4] + R[(2,2):(1,2)]", true), (std::vector<std::int64_t>{0, 2, 1, 3, 4, 6, 5, 7}));
}


// The blocks of for_each_run, expanded point by point (i, j), are exactly the points apply() names
// in sweep order — flat index, replica ordinal and every axis value — for layouts with extent-1
// iters, replicas (fastest), offsets, two innermost digits on one axis, a declared broadcast left
// out, one point; and for_each (built on the blocks) visits the same points and stops early.
TEST(Sweep, BlocksExpandToTheSweepOrder) {
  struct Case {
    const char* text;
    bool replicas, no_broadcast;
  };
  for (const Case c : {Case{"S[(2,3):(10,1)]", false, false}, Case{"S[(4,1,3,1):(1@laneid,7,2,5)] + 3@laneid", true, false},
                       Case{"S[2:4] + R[(2,1,2):(1,9,2)]", true, false}, Case{"S[(2,3):(10,1)] + R[4:1@warpid]", false, false},
                       Case{"S[(3,5):(2,7)]", true, false}, Case{"S[1:1] + 5", true, false},
                       Case{"S[(2,3,4):(1@laneid,1@warpid,1)] + R[(2,3):(1@TLane,8@m)]", true, false},
                       Case{"S[(3,4):(1,0)]", true, true}}) {
    SCOPED_TRACE(c.text);
    TileLayout t = parse_layout(c.text).tile();
    if (c.no_broadcast) t.shard[1].broadcast = true;
    const Sweep sw(t, c.replicas, c.no_broadcast);
    using P = std::tuple<std::int64_t, std::int64_t, std::vector<std::int64_t>>;
    std::vector<P> want, blocks, points;
    // The reference: flat order, replica combinations last-fastest, from apply_iters.
    const std::int64_t n = t.size();
    for (std::int64_t f = 0; f < n; ++f) {
      std::vector<std::int64_t> digits = t.split(f);
      bool skip = false;
      for (std::size_t k = 0; k < t.shard.size(); ++k)
        if (c.no_broadcast && t.shard[k].is_declared_broadcast() && digits[k] != 0) skip = true;
      if (skip) continue;
      std::vector<std::int64_t> r(c.replicas ? t.replica.size() : 0, 0);
      for (std::int64_t ord = 0;; ++ord) {
        Coord co = t.apply_iters(digits);
        for (std::size_t q = 0; q < r.size(); ++q) co.add(t.replica[q].axis, r[q] * t.replica[q].stride);
        std::vector<std::int64_t> v;
        for (Axis a : sw.axes()) v.push_back(co.get(a));
        want.emplace_back(f, ord, v);
        std::size_t q = r.size();
        while (q > 0 && ++r[q - 1] == t.replica[q - 1].extent) r[--q] = 0;
        if (q == 0) break;
      }
    }
    sw.for_each_run([&](const Sweep::Run& b) {
      for (std::int64_t i = 0; i < b.count2; ++i)
        for (std::int64_t j = 0; j < b.count; ++j) {
          std::vector<std::int64_t> v(b.values, b.values + sw.axes().size());
          if (b.slot2 >= 0) v[static_cast<std::size_t>(b.slot2)] += i * b.stride2;
          if (b.slot >= 0) v[static_cast<std::size_t>(b.slot)] += j * b.stride;
          blocks.emplace_back(b.flat + i * b.flat_step2 + j * b.flat_step, b.replica + i * b.replica_step2 + j * b.replica_step,
                              v);
        }
    });
    sw.for_each([&](std::int64_t f, std::int64_t r, const std::int64_t* v) {
      points.emplace_back(f, r, std::vector<std::int64_t>(v, v + sw.axes().size()));
    });
    EXPECT_EQ(blocks, want);
    EXPECT_EQ(points, want);
    EXPECT_EQ(static_cast<std::int64_t>(want.size()), sw.points());
    std::size_t seen = 0;
    sw.for_each([&](std::int64_t, std::int64_t, const std::int64_t*) { return ++seen < 3; });
    EXPECT_EQ(seen, std::min<std::size_t>(3, want.size()));
  }
}

}  // namespace
}  // namespace tirx
