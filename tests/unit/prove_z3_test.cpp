// The Z3 engine: bit widths, the three queries on layouts no other engine shortcut covers
// (non-power-of-two, negative strides, carries, replica sets beyond expansion), witnesses
// re-checked by evaluation, and limits answering "undecided" with the limit named.
#include <gtest/gtest.h>

#include <chrono>

#include "test_util.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/z3_engine.hpp"

namespace tirx::prove {
namespace {
using namespace tirx::test;

TEST(Z3, TermWidthCoversEveryValueWithHeadroom) {
  // Layout D: values up to the size 65536 (17 bits) + sign and headroom = 19.
  EXPECT_EQ(z3engine::term_width(TL({I(128, 1, "TLane"), I(512, 1, "TCol")})), 19u);
  // A range limit of 2^40 must be representable too.
  EXPECT_EQ(z3engine::term_width(TL({I(8, 1)}), std::int64_t{1} << 40), 43u);
  // Negative strides count by magnitude: 7 * 1000 + 5 = 7005 (13 bits) + 2.
  EXPECT_EQ(z3engine::term_width(TL({I(8, -1000)}, {}, {{"m", 5}})), 15u);
  // A swizzle needs M+B+S+2 bits even on a tiny tile.
  EXPECT_EQ(z3engine::term_width(CL(4, 3, 3, TL({I(4, 1)}))), 12u);
  // Near-int64 strides: no wrap-around, the width grows past 64.
  EXPECT_GE(z3engine::term_width(TL({I(2, std::int64_t{1} << 62), I(2, std::int64_t{1} << 62, "laneid")})), 64u);
}

TEST(Z3, InjectiveWitnessOnNonPowerOfTwo) {
  // S[(3,5):(4,1)]: element (0,4) and (1,0) both at m = 4.
  const Layout l = TL({I(3, 4), I(5, 1)});
  const auto r = z3engine::injective(l, Scope::kShared, EngineLimits{});
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_NE(*r.a, *r.b);
  EXPECT_EQ(image_of(l, *r.a), image_of(l, *r.b));
  // Ordered: a precedes b in (flat, replica) order.
  EXPECT_LT(flat_index(l.tile(), *r.a), flat_index(l.tile(), *r.b));
}

TEST(Z3, InjectiveWithNegativeStridesAndHugeStrides) {
  EXPECT_EQ(z3engine::injective(TL({I(8, -8), I(8, 1)}, {}, {{"m", 56}}), Scope::kShared, EngineLimits{}).status,
            Status::kPass);
  // Strides near 2^62: a 64-bit encoding would wrap and could fake a collision.
  const std::int64_t big = std::int64_t{1} << 61;
  EXPECT_EQ(z3engine::injective(TL({I(3, big), I(3, 1)}), Scope::kShared, EngineLimits{}).status, Status::kPass);
  const auto r = z3engine::injective(TL({I(3, big), I(3, big)}), Scope::kShared, EngineLimits{});
  ASSERT_EQ(r.status, Status::kFail);
}

TEST(Z3, BroadcastDigitsStayFixed) {
  // A declared (sf_reuse-style) stride-0 shard iter: not a collision; an undeclared one is, and so
  // is a stride-0 replica.
  EXPECT_EQ(z3engine::injective(TL({B(4), I(8, 1)}), Scope::kShared, EngineLimits{}).status, Status::kPass);
  const auto c = z3engine::injective(TL({I(4, 0), I(8, 1)}), Scope::kShared, EngineLimits{});
  ASSERT_EQ(c.status, Status::kFail);
  EXPECT_NE(c.a->digits[0], c.b->digits[0]);
  EXPECT_EQ(c.a->digits[1], c.b->digits[1]);
  const auto r = z3engine::injective(TL({I(8, 1)}, {I(3, 0)}), Scope::kShared, EngineLimits{});
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.a->digits, r.b->digits);
  EXPECT_NE(r.a->replica, r.b->replica);
}

TEST(Z3, SwizzledBoundsWitness) {
  // 64-element rows at a 128-element pitch under the 128B swizzle leave the 480-element span.
  const Layout l = CL(3, 3, 3, TL({I(8, 64), I(32, 1)}));
  const BoundTarget t{AxisId::m, true, 0, 480, ""};
  const auto r = z3engine::bounds(l, {&t, 1}, EngineLimits{});
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_GE(r.value, 480);
  EXPECT_EQ(image_of(l, *r.element).get(AxisId::m), r.value);
  // Non-power-of-two rows (24 of 32) still stay inside 512.
  const BoundTarget u{AxisId::m, true, 0, 512, ""};
  EXPECT_EQ(z3engine::bounds(CL(3, 3, 3, TL({I(8, 64), I(24, 1)})), {&u, 1}, EngineLimits{}).status, Status::kPass);
}

TEST(Z3, EquivalenceFindsTheFirstDifferingElementByBisection) {
  // S[(2,30):(30,1)] vs S[(2,30):(31,1)]: the second row is shifted by one from flat 30 on.
  const auto r = z3engine::equivalent(TL({I(2, 30), I(30, 1)}), TL({I(2, 31), I(30, 1)}), EngineLimits{});
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(*r.flat, 30);
  EXPECT_TRUE(r.first);
  // TVM canonicalize facts (tirx_semantics.md (e)) are equivalences.
  EXPECT_EQ(z3engine::equivalent(TL({I(8, 6), I(2, 24), I(3, 6), I(6, 1)}), TL({I(8, 6), I(2, 24), I(18, 1)}),
                                 EngineLimits{})
                .status,
            Status::kPass);
  EXPECT_EQ(z3engine::equivalent(TL({I(3, 20), I(4, 5), I(5, 1), I(2, 60)}), TL({I(60, 1), I(2, 60)}), EngineLimits{})
                .status,
            Status::kPass);
}

TEST(Z3, EquivalenceOfReplicaSets) {
  // {l+64, l+128} written two ways (one with a negative replica stride).
  const Layout a = TL({I(4, 1, "TCol")}, {I(2, 64, "TLane")}, {{"TLane", 64}});
  const Layout b = TL({I(4, 1, "TCol")}, {I(2, -64, "TLane")}, {{"TLane", 128}});
  EXPECT_EQ(z3engine::equivalent(a, b, EngineLimits{}).status, Status::kPass);
  const Layout c = TL({I(4, 1, "TCol")}, {I(3, 64, "TLane")}, {{"TLane", 64}});  // one more copy
  const auto r = z3engine::equivalent(a, c, EngineLimits{});
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(*r.flat, 0);
  // More than 256 copies: a bit-vector forall instead of an expansion.
  const Layout big_a = TL({I(2, 1, "TCol")}, {I(512, 1, "TLane")});
  const Layout big_b = TL({I(2, 1, "TCol")}, {I(2, 256, "TLane"), I(256, 1, "TLane")});
  const Layout big_c = TL({I(2, 1, "TCol")}, {I(2, 257, "TLane"), I(256, 1, "TLane")});
  EXPECT_EQ(z3engine::equivalent(big_a, big_b, EngineLimits{}).status, Status::kPass);
  const auto d = z3engine::equivalent(big_a, big_c, EngineLimits{});
  ASSERT_EQ(d.status, Status::kFail);
  EXPECT_EQ(*d.flat, 0);
}

TEST(Z3, ProvesA2To24PointLayoutEnumerationWouldSweep) {
  // Padded 4096 x 4096 tile (pitch 4104): 16.7 M points, not power-of-two.
  const Layout l = TL({I(4096, 4104), I(4096, 1)});
  const auto r = z3engine::injective(l, Scope::kShared, EngineLimits{});
  EXPECT_EQ(r.status, Status::kPass) << r.message;
}

TEST(Z3, TinyLimitsAreUndecidedAndNamed) {
  const Layout l = TL({I(4096, 4104), I(4096, 1)});
  EngineLimits no_time;
  no_time.z3_timeout_ms = 0;
  const auto t = z3engine::injective(l, Scope::kShared, no_time);
  EXPECT_EQ(t.status, Status::kUndecided);
  EXPECT_NE(t.message.find("z3 timeout: z3_timeout_ms=0"), std::string::npos) << t.message;
  EngineLimits one_ms;
  one_ms.z3_timeout_ms = 1;
  const auto start = std::chrono::steady_clock::now();
  const auto u = z3engine::injective(l, Scope::kShared, one_ms);
  EXPECT_EQ(u.status, Status::kUndecided);
  EXPECT_NE(u.message.find("z3_timeout_ms=1"), std::string::npos) << u.message;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
  EngineLimits no_memory;
  no_memory.z3_memory_mb = 1;  // below what a Z3 context needs
  const auto m = z3engine::injective(l, Scope::kShared, no_memory);
  EXPECT_EQ(m.status, Status::kUndecided);
  EXPECT_NE(m.message.find("z3 memory limit: z3_memory_mb=1"), std::string::npos) << m.message;
  const auto e = z3engine::equivalent(l, l, no_memory);
  EXPECT_EQ(e.status, Status::kUndecided);
  // After a memory-limited run the next one works again (the ceiling is per session).
  EXPECT_EQ(z3engine::injective(TL({I(3, 5), I(5, 1)}), Scope::kShared, EngineLimits{}).status, Status::kPass);
}

}  // namespace
}  // namespace tirx::prove
