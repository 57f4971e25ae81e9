// The GF(2) engine: the linear map it builds, when it applies, and its three decisions checked
// against brute-force evaluation.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/gf2.hpp"

namespace tirx::prove {
namespace {
using namespace tirx::test;

std::uint64_t column(const gf2::AffineMap& m, std::size_t j) { return m.column(j)[0]; }

TEST(Gf2, LinearizesThe128BSwizzleAsTheHeaderTableSays) {
  // ComposeLayout(3,3,3, S[(8,64):(64,1)]): domain bits j0..j5 (columns 0..5), i0..i2 (6..8).
  const Layout l = CL(3, 3, 3, TL({I(8, 64), I(64, 1)}));
  gf2::LinearizeOptions o;
  o.axes = {AxisId::m};
  const auto lin = gf2::linearize(l, o);
  ASSERT_TRUE(std::holds_alternative<gf2::AffineMap>(lin));
  const auto& m = std::get<gf2::AffineMap>(lin);
  ASSERT_EQ(m.domain.size(), 9u);
  for (int b = 0; b < 6; ++b) {
    EXPECT_EQ(m.domain[static_cast<std::size_t>(b)].iter, 1);
    EXPECT_EQ(column(m, static_cast<std::size_t>(b)), std::uint64_t{1} << b);  // j bits stay where they are
  }
  // i_k lands on m bit 6+k and is XOR-ed into bit 3+k.
  EXPECT_EQ(column(m, 6), (1u << 6) | (1u << 3));
  EXPECT_EQ(column(m, 7), (1u << 7) | (1u << 4));
  EXPECT_EQ(column(m, 8), (1u << 8) | (1u << 5));
  EXPECT_EQ(m.constant[0], 0u);
  // Every column is the image of one element: check against direct evaluation.
  for (std::size_t j = 0; j < m.domain.size(); ++j) {
    Element e{{0, 0}, {}};
    e.digits[static_cast<std::size_t>(m.domain[j].iter)] = std::int64_t{1} << m.domain[j].bit;
    EXPECT_EQ(static_cast<std::uint64_t>(image_of(l, e).get(AxisId::m)), column(m, j));
  }
}

TEST(Gf2, SaysWhyItDoesNotApply) {
  auto why = [](const Layout& l) { return gf2::why_not_injective(l, Scope::kShared).value_or(""); };
  EXPECT_NE(why(TL({I(3, 8), I(8, 1)})).find("extent 3, not a power of two"), std::string::npos);
  EXPECT_NE(why(TL({I(8, 12), I(8, 1)})).find("stride 12, not a power of two"), std::string::npos);
  EXPECT_NE(why(TL({I(8, -8), I(8, 1)})).find("negative stride"), std::string::npos);
  EXPECT_NE(why(TL({I(4, 2), I(4, 1)})).find("carries"), std::string::npos);
  EXPECT_NE(why(TL({I(8, 1)}, {I(2, 4)})).find("carries"), std::string::npos);
  // Offsets do not matter for injectivity (a translation) ...
  EXPECT_EQ(why(TL({I(8, 1)}, {}, {{"m", 3}})), "");
  // ... but they do for bounds and equivalence, where the exact map is needed.
  const BoundTarget t{AxisId::m, false, 0, 100, ""};
  EXPECT_NE(gf2::why_not_bounds(TL({I(8, 1)}, {}, {{"m", 3}}), {&t, 1}).value_or("").find("offset 3 on m"),
            std::string::npos);
  EXPECT_FALSE(gf2::why_not_bounds(TL({I(8, 1)}, {}, {{"m", 8}}), {&t, 1}));
  // A swizzled view: only the offset modulo the period has to be carry-free for injectivity.
  EXPECT_EQ(why(CL(3, 3, 3, TL({I(64, 1)}, {}, {{"m", 512 * 5 + 64}}))), "");
  EXPECT_NE(why(CL(3, 3, 3, TL({I(64, 1)}, {}, {{"m", 512 * 5 + 8}}))).find("carries"), std::string::npos);
  // Extent-1 iters carry no bits, whatever their stride (canonicalize input S[(8,1,8):(8,160,1)]).
  EXPECT_EQ(why(TL({I(8, 8), I(1, 160), I(8, 1)})), "");
}

TEST(Gf2, InjectiveRankAndWitness) {
  const auto ok = gf2::injective(TL({I(128, 1, "TLane"), I(512, 1, "TCol")}), Scope::kTmem);
  EXPECT_EQ(ok.status, Status::kPass);
  EXPECT_EQ(ok.message, "rank 16 = 16 digit bits");
  // Two lanes' worth of elements on one m cell: laneid is not part of a shared cell.
  const Layout l = TL({I(4, 1, "laneid"), I(8, 1)});
  const auto bad = gf2::injective(l, Scope::kShared);
  ASSERT_EQ(bad.status, Status::kFail);
  // First collision in sweep order: flat 8 (laneid 1, m 0) with flat 0.
  EXPECT_EQ(flat_index(l.tile(), *bad.a), 0);
  EXPECT_EQ(flat_index(l.tile(), *bad.b), 8);
  // The same layout in local scope (laneid is part of the cell) is injective.
  EXPECT_EQ(gf2::injective(l, Scope::kLocal).status, Status::kPass);
}

TEST(Gf2, BoundsAreTheExactExtremes) {
  // Swizzled addresses of several tiles: gf2's max/min equal brute force over every element.
  const std::vector<Layout> layouts = {
      CL(3, 3, 3, TL({I(8, 64), I(32, 1)})),                       // 64-element pitch, 32 used
      CL(3, 2, 3, TL({I(4, 32), I(2, 2048), I(16, 1)})),           // 64B, sparse
      CL(3, 3, 3, TL({I(2, 64), I(64, 1)}, {}, {{"m", 1024}})),    // a view two periods in
      CL(4, 1, 3, TL({I(8, 32), I(16, 1)}, {I(2, 512)})),          // replicas
  };
  for (const Layout& l : layouts) {
    std::int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (std::int64_t f = 0; f < l.size(); ++f)
      for (const Coord& c : l.images(l.tile().split(f))) {
        lo = std::min(lo, c.get(AxisId::m));
        hi = std::max(hi, c.get(AxisId::m));
      }
    // A target every value violates from above and one from below: the witness is the extreme.
    const BoundTarget above{AxisId::m, true, INT64_MIN, hi, ""};
    const BoundTarget below{AxisId::m, true, lo + 1, std::nullopt, ""};
    const auto a = gf2::bounds(l, {&above, 1});
    ASSERT_EQ(a.status, Status::kFail);
    EXPECT_EQ(a.value, hi);
    EXPECT_EQ(image_of(l, *a.element).get(AxisId::m), hi);
    const auto b = gf2::bounds(l, {&below, 1});
    ASSERT_EQ(b.status, Status::kFail);
    EXPECT_EQ(b.value, lo);
    EXPECT_EQ(image_of(l, *b.element).get(AxisId::m), lo);
    const BoundTarget fits{AxisId::m, true, lo, hi + 1, ""};
    EXPECT_EQ(gf2::bounds(l, {&fits, 1}).status, Status::kPass);
  }
}

TEST(Gf2, NegativeOffsetBoundsUseSignedOrder) {
  // S[8:1] + (-64): values -64..-57; the sign bit is a constant, so unsigned order is signed order.
  const Layout l = TL({I(8, 1)}, {}, {{"m", -64}});
  const BoundTarget t{AxisId::m, false, 0, std::nullopt, ""};
  const auto r = gf2::bounds(l, {&t, 1});
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.value, -64);
  const BoundTarget u{AxisId::m, false, -64, -56, ""};
  EXPECT_EQ(gf2::bounds(l, {&u, 1}).status, Status::kPass);
  const BoundTarget v{AxisId::m, false, -64, -57, ""};
  const auto w = gf2::bounds(l, {&v, 1});
  ASSERT_EQ(w.status, Status::kFail);
  EXPECT_EQ(w.value, -57);
}

TEST(Gf2, EquivalenceFirstDifferingElement) {
  // 128B vs 64B swizzle: they differ first where m bit 8 is set (it feeds bit 5 only in 128B).
  const auto r = gf2::equivalent(CL(3, 3, 3, TL({I(512, 1)})), CL(3, 2, 3, TL({I(512, 1)})));
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(*r.flat, 256);
  const auto e = enumerate::equivalent(CL(3, 3, 3, TL({I(512, 1)})), CL(3, 2, 3, TL({I(512, 1)})), EngineLimits{});
  EXPECT_EQ(*e.flat, 256);
  // The same map with different iters; zero offsets and absent axes compare equal.
  EXPECT_EQ(gf2::equivalent(TL({I(64, 1)}), TL({I(8, 8), I(8, 1)}, {}, {{"laneid", 0}})).status, Status::kPass);
  EXPECT_EQ(gf2::equivalent(CL(3, 3, 3, TL({I(64, 64), I(4, 4096), I(64, 1)})),
                            CL(3, 3, 3, TL({I(8, 512), I(8, 64), I(4, 4096), I(8, 8), I(8, 1)})))
                .status,
            Status::kPass);
  // Different offsets: the first element already differs.
  const auto off = gf2::equivalent(TL({I(4, 32, "TLane"), I(16, 1, "TLane"), I(32, 1, "TCol")}),
                                   TL({I(4, 32, "TLane"), I(16, 1, "TLane"), I(32, 1, "TCol")}, {}, {{"TLane", 16}}));
  ASSERT_EQ(off.status, Status::kFail);
  EXPECT_EQ(*off.flat, 0);
}

TEST(Gf2, EquivalenceComparesReplicaSets) {
  // Replica order does not matter (sets), the replica span does.
  const Layout a = TL({I(8, 1, "TCol")}, {I(2, 32, "TLane"), I(2, 64, "TLane")});
  const Layout b = TL({I(8, 1, "TCol")}, {I(2, 64, "TLane"), I(2, 32, "TLane")});
  EXPECT_EQ(gf2::equivalent(a, b).status, Status::kPass);
  const Layout c = TL({I(8, 1, "TCol")}, {I(2, 32, "TLane")});
  const auto r = gf2::equivalent(a, c);
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(*r.flat, 0);
  // A shard digit and a replica on the same bit carry (64 + 64 = 128): not GF(2), enumeration
  // decides — element (1, 0) has images {64, 128} against {0, 64}.
  const Layout d = TL({I(2, 64, "TLane"), I(4, 1, "TCol")}, {I(2, 64, "TLane")});
  const Layout e = TL({I(2, 0, "TLane"), I(4, 1, "TCol")}, {I(2, 64, "TLane")});
  EXPECT_EQ(gf2::equivalent(d, e).status, Status::kNotApplicable);
  EXPECT_EQ(*enumerate::equivalent(d, e, EngineLimits{}).flat, 4);
}

}  // namespace
}  // namespace tirx::prove
