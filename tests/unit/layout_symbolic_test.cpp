// Symbolic layouts (layout/symbolic.hpp): SymExpr arithmetic and bounds, --param parsing, and
// the symbolic reader of the notation, checked against parse_layout binding by binding.
#include <gtest/gtest.h>

#include <random>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/symbolic.hpp"

namespace tirx {
namespace {

const SymExpr N = SymExpr::param("N");
const SymExpr M = SymExpr::param("M");

TEST(SymExpr, ConstantsFoldAndIdentitiesVanish) {
  EXPECT_TRUE((SymExpr(6) * SymExpr(7)).is_const());
  EXPECT_EQ((SymExpr(6) * SymExpr(7)).constant(), 42);
  EXPECT_EQ((N * 1).str(), "N");
  EXPECT_EQ((N + 0).str(), "N");
  EXPECT_EQ(SymExpr::floor_div(N, 1).str(), "N");
  EXPECT_EQ(((N + 1) * 64).str(), "(N + 1) * 64");
  EXPECT_EQ((N - (M - 2)).str(), "N - (M - 2)");
  EXPECT_EQ(SymExpr::floor_mod(N * M, 32).str(), "N * M % 32");
  EXPECT_THROW((void)(SymExpr(INT64_MAX) + SymExpr(1)), InputError);
  EXPECT_THROW((void)SymExpr::floor_div(SymExpr(4), SymExpr(0)), InputError);
}

TEST(SymExpr, EvaluatesWithPythonFloorSemantics) {
  const Env env{{"N", -7}, {"M", 2}};
  EXPECT_EQ(SymExpr::floor_div(N, M).eval(env), -4);
  EXPECT_EQ(SymExpr::floor_mod(N, M).eval(env), 1);
  EXPECT_EQ(SymExpr::floor_div(N, -M).eval(env), 3);
  EXPECT_EQ(SymExpr::floor_mod(N, -M).eval(env), -1);
  EXPECT_EQ((N * M - 3).eval(env), -17);
  EXPECT_THROW((void)N.eval({}), InputError);
}

TEST(SymExpr, BoundsAreSoundOverEveryBinding) {
  const std::vector<ParamRange> r = {{"N", -8, 20, 4}, {"M", 1, 5, 1}};  // N in -8,-4,...,20
  const std::vector<SymExpr> exprs = {N * M, N - M, SymExpr::floor_div(N, M), SymExpr::floor_mod(N, M),
                                      -(N * N) + M, SymExpr::floor_div(N * 3 + 1, M + 1)};
  for (const SymExpr& e : exprs) {
    const SymExpr::Bounds b = e.bounds(r);
    __int128 lo = INT64_MAX, hi = INT64_MIN;
    for (std::int64_t n = -8; n <= 20; n += 4)
      for (std::int64_t m = 1; m <= 5; ++m) {
        const std::int64_t v = e.eval({{"N", n}, {"M", m}});
        lo = std::min<__int128>(lo, v);
        hi = std::max<__int128>(hi, v);
      }
    EXPECT_LE(b.lo, lo) << e.str();
    EXPECT_GE(b.hi, hi) << e.str();
  }
  // Products and floor division are exact at the corners.
  EXPECT_EQ(static_cast<std::int64_t>((N * M).bounds(r).lo), -40);
  EXPECT_EQ(static_cast<std::int64_t>((N * M).bounds(r).hi), 100);
  EXPECT_EQ(r[0].last(), 20);
  EXPECT_THROW((void)SymExpr::floor_div(M, N).bounds(r), NotSymbolic);  // N may be 0
}

TEST(ParamRange, NamesMayNotShadowTheNotation) {
  // An axis, a built-in or True/False/None as a parameter name would change what the layout
  // text means (4@laneid would read 4@4): cli.usage errors naming the clash.
  for (const char* bad : {"laneid=4", "m=3", "True=4", "None=1", "S=2", "R=1..8", "TileLayout=1", "T.x=3"}) {
    try {
      parse_param_range(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.check_id(), "cli.usage") << bad;
      EXPECT_NE(e.message().find("may not shadow it"), std::string::npos) << e.message();
    }
  }
  for (const char* bad : {"3x=1", "a-b=2", ".x=1", "x.=1", "=4"}) EXPECT_THROW(parse_param_range(bad), InputError) << bad;
  EXPECT_EQ(parse_param_range("self.BLK_M=128").name, "self.BLK_M");
  EXPECT_EQ(parse_param_range("lane=4").lo, 4);  // close to an axis name is fine
}

TEST(ParamRange, ParsesValuesRangesAndSteps) {
  const ParamRange a = parse_param_range("N=8..256:8");
  EXPECT_EQ(a.name, "N");
  EXPECT_EQ(a.lo, 8);
  EXPECT_EQ(a.hi, 256);
  EXPECT_EQ(a.step, 8);
  EXPECT_EQ(a.count(), 32);
  const ParamRange b = parse_param_range("K=2*64");
  EXPECT_EQ(b.lo, 128);
  EXPECT_EQ(b.count(), 1);
  EXPECT_EQ(parse_param_range("STEP=1..10:4").last(), 9);
  EXPECT_EQ(parse_param_range("STEP=1..10:4").str(), "STEP=1..10:4");
  EXPECT_EQ(parse_param_range("STEP=0..9223372036854775807").count(), INT64_MAX);
  for (const char* bad : {"N", "=4", "N=8..4", "N=1..8:0", "N=x..8"}) {
    try {
      (void)parse_param_range(bad);
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.check_id(), "cli.usage") << bad;
    }
  }
}

TEST(SymbolicNotation, ReadsTheSubsetWithParametersKept) {
  const SymLayout l = parse_symbolic_layout("S[(N//32, 32):(32@TCol, 1@TLane)] + R[2:M@TCol] + (N%4)@TCol", {"N", "M"});
  ASSERT_EQ(l.shard.size(), 2u);
  EXPECT_EQ(l.shard[0].extent.str(), "N // 32");
  EXPECT_EQ(l.shard[0].axis, Axis(AxisId::TCol));
  ASSERT_EQ(l.replica.size(), 1u);
  EXPECT_EQ(l.replica[0].stride.str(), "M");
  ASSERT_EQ(l.offset.size(), 1u);
  EXPECT_EQ(l.offset[0].second.str(), "N % 4");
  EXPECT_EQ(l.params(), (std::vector<std::string>{"M", "N"}));
  EXPECT_EQ(l.str(), "S[(N // 32, 32):(32@TCol, 1@TLane)] + R[2:M@TCol] + (N % 4)@TCol");

  const SymLayout c = parse_symbolic_layout("T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(R, 64):(64, 1)]), swizzle_inner=False)", {"R"});
  ASSERT_TRUE(c.swizzle.has_value());
  EXPECT_FALSE(c.swizzle->swizzle_inner);
  EXPECT_EQ(c.shard[0].extent.str(), "R");
  // Names bound in the env are constants.
  EXPECT_TRUE(parse_symbolic_layout("S[(N, K):(K, 1)]", {"N"}, {{"K", 64}}).shard[1].extent.is_const());
}

TEST(SymbolicNotation, ConstructsOutsideTheSubsetAreNotSymbolic) {
  for (const char* text : {"tmem_datapath_layout('D', N, 32)", "S[N:1].canonicalize()", "ComposeLayout(B, 3, 3, S[512:1])",
                           "TileLayout.from_iters(offset={'m': N})", "S[N/2:1]"}) {
    EXPECT_THROW((void)parse_symbolic_layout(text, {"N", "B"}), NotSymbolic) << text;
  }
  try {
    (void)parse_symbolic_layout("S[N:1] + wg_local_layout(N)", {"N"});
    FAIL();
  } catch (const NotSymbolic& e) {
    EXPECT_EQ(e.pos(), 9u);  // the call
  }
}

TEST(SymbolicNotation, InstantiateEqualsTheNotationForEveryBinding) {
  const std::vector<std::string> texts = {
      "S[(N, 64):(64, 1)]",
      "S[(N, N):(N + 8, 1)]",
      "S[N, 4, 2]",
      "S[(N//32 + 1, 32):(32@TCol, 1@TLane)] + R[2:64@TLane]",
      "S[(8, N):(4@laneid, (1, 'warpid'))] + N@m + 1@laneid",
      "TileLayout(S[(N, 8):(-N, 1)] + 5)",
      "ComposeLayout(3, 3, 3, S[(N*8, 64):(64, 1)])",
      "64 + S[(N % 5 + 1, 3):(3, 1)]",
      "S[(N, 2):(2, 1)] + S[4:1] + R[(N // 2 + 1):(0)]",
  };
  for (const std::string& t : texts) {
    const SymLayout s = parse_symbolic_layout(t, {"N"});
    for (std::int64_t n = 3; n <= 40; ++n) {
      const Env env{{"N", n}};
      EXPECT_EQ(s.instantiate(env), parse_layout(t, env)) << t << " N=" << n;
    }
  }
}

TEST(SymbolicNotation, SpecsThatPlusDropsAreStillValidated) {
  // Fuzz finding: the second S[...] is dropped by `+` (the first shard wins), but the notation
  // rejects its extent 0 anyway; the symbolic reader must too.
  EXPECT_THROW((void)parse_layout("S[40:6] + S[404548,0] + S[4096]"), InputError);
  try {
    (void)parse_symbolic_layout("S[40:6] + S[404548,0] + S[4096]", {"N"});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "layout.well-formed");
    EXPECT_EQ(e.pos(), 19u);  // the 0, as the notation reports it
  }
  // A parameter in a dropped extent cannot be validated symbolically.
  EXPECT_THROW((void)parse_symbolic_layout("S[40:6] + S[N:1]", {"N"}), NotSymbolic);
  EXPECT_EQ(parse_symbolic_layout("S[40:6] + S[4:1]", {"N"}).shard[0].extent.constant(), 40);
}

TEST(SymbolicNotation, InstantiateRejectsTheBindingsTheNotationRejects) {
  const SymLayout s = parse_symbolic_layout("S[(N - 4, 8):(8, 1)]", {"N"});
  EXPECT_NO_THROW((void)s.instantiate({{"N", 5}}));
  try {
    (void)s.instantiate({{"N", 4}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "layout.well-formed");
    EXPECT_NE(e.message().find("N - 4 = 0"), std::string::npos) << e.message();
  }
  EXPECT_THROW((void)parse_layout("S[(N - 4, 8):(8, 1)]", {{"N", 4}}), InputError);
}

// Random layouts of the subset with N in extents, strides and offsets: the symbolic reading
// instantiates to exactly what the notation evaluates, or both reject the binding.
TEST(SymbolicNotation, RandomTextsAgreeWithTheNotation) {
  std::mt19937 rng(20261130);
  const std::vector<std::string> atoms = {"N", "2", "3", "N+1", "N//2+1", "N%3+1", "(N*2)", "4", "N-2"};
  const std::vector<std::string> axes = {"", "@laneid", "@warpid", "@TCol", "@TLane"};
  auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
  int agreed = 0, rejected = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 3);
    std::string ext, st;
    for (int k = 0; k < n; ++k) {
      ext += (k ? ", " : "") + pick(atoms);
      // Parenthesized, or `N+1@TCol` would be N + (1@TCol), an offset sum (rejected by both).
      st += (k ? ", " : "") + std::string(rng() % 4 == 0 ? "-" : "") + "(" + pick(atoms) + ")" + pick(axes);
    }
    std::string text = "S[(" + ext + "):(" + st + ")]";
    if (rng() % 2) text += " + R[" + pick(atoms) + ":(" + pick(atoms) + ")" + pick(axes) + "]";
    if (rng() % 2) text += " + (" + pick(atoms) + ")" + pick(axes);
    if (rng() % 8 == 0) text += " + N@m + 1";  // a sum the stride position would reject
    std::optional<SymLayout> sl;
    try {
      sl = parse_symbolic_layout(text, {"N"});
    } catch (const NotSymbolic&) {
      // Only text the notation rejects too (e.g. a stride written as an offset sum: -N+1@TCol).
      for (std::int64_t v = 0; v <= 9; ++v) EXPECT_THROW((void)parse_layout(text, {{"N", v}}), InputError) << text;
      ++rejected;
      continue;
    }
    const SymLayout& s = *sl;
    for (std::int64_t v = 0; v <= 9; ++v) {
      const Env env{{"N", v}};
      std::optional<Layout> a, b;
      try {
        a = s.instantiate(env);
      } catch (const InputError&) {
      }
      try {
        b = parse_layout(text, env);
      } catch (const InputError&) {
      }
      ASSERT_EQ(a.has_value(), b.has_value()) << text << " N=" << v;
      if (a) {
        EXPECT_EQ(*a, *b) << text << " N=" << v;
        ++agreed;
      }
    }
  }
  EXPECT_GT(agreed, 500);  // most bindings are well-formed
  EXPECT_LT(rejected, 20);
}

}  // namespace
}  // namespace tirx
