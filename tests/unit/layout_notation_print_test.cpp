// The printer: builder form and TVM's printed form (spec section (c) "Printed form"; facts from
// test_parser_printer.py and test_spec_builder), and parse(print(L)) == L for both styles.
#include <gtest/gtest.h>

#include <limits>

#include "layout_notation_test_util.hpp"

namespace tirx {
namespace {

using test::compose;
using test::tl;
constexpr AxisId m = AxisId::m, laneid = AxisId::laneid, warpid = AxisId::warpid, TLane = AxisId::TLane,
                 TCol = AxisId::TCol, tid_in_wg = AxisId::tid_in_wg, wid_in_wg = AxisId::wid_in_wg, tx = AxisId::tx,
                 wgid = AxisId::wgid, P = AxisId::P, F = AxisId::F, Bank = AxisId::Bank, bx = AxisId::bx,
                 cbx = AxisId::cbx;

std::string tvm(std::string_view builder) { return print_layout(parse_layout(builder), PrintStyle::kTvm); }

// ---------------------------------------------------------------- TVM printed form

struct PrintCase {
  const char* input;
  const char* tvm;
};

// Spec (c), "Examples (derived from the printer code; round-trip asserted in test_parser_printer.py)".
const PrintCase kSpecExamples[] = {
    {"S[(8,4,2):(4@laneid,1@laneid,1)]", "T.TileLayout(T.S[(8, 4, 2):(4 @ Axis.laneid, 1 @ Axis.laneid, 1)])"},
    {"S[8:4@laneid] + R[4:1@laneid]", "T.TileLayout(T.S[8:4 @ Axis.laneid] + T.R[4:1 @ Axis.laneid])"},
    {"S[8:4@laneid] + 1@laneid", "T.TileLayout(T.S[8:4 @ Axis.laneid] + 1 @ Axis.laneid)"},
    {"S[8:4@laneid] + 1@laneid + 2@warpid + 64",
     "T.TileLayout(T.S[8:4 @ Axis.laneid] + (1 @ Axis.laneid + 64 + 2 @ Axis.warpid))"},
    {"S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
     "T.TileLayout(T.S[(8, 2, 4, 2):(4 @ Axis.laneid, 1 @ Axis.warpid, 1 @ Axis.laneid, 1)] + "
     "T.R[2:4 @ Axis.warpid] + 5 @ Axis.warpid)"},
    {"S[(128,64):(1@TLane,1@TCol)]", "T.TileLayout(T.S[(128, 64):(1 @ Axis.TLane, 1 @ Axis.TCol)])"},
    {"S[(4,16,32):(32@TLane,1@TLane,1@TCol)] + 16@TLane",
     "T.TileLayout(T.S[(4, 16, 32):(32 @ Axis.TLane, 1 @ Axis.TLane, 1 @ Axis.TCol)] + 16 @ Axis.TLane)"},
    {"ComposeLayout(3, 3, 3, S[512:1])", "T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[512:1]))"},
    {"ComposeLayout(0, 3, 3, S[64:1], swizzle_inner=False)",
     "T.ComposeLayout(0, 3, 3, T.TileLayout(T.S[64:1]), swizzle_inner=False)"},
};

TEST(NotationPrint, SpecPrintedFormExamples) {
  for (const PrintCase& c : kSpecExamples) {
    EXPECT_EQ(tvm(c.input), c.tvm) << c.input;
    EXPECT_EQ(parse_layout(c.tvm), parse_layout(c.input)) << "printed text must parse back: " << c.tvm;
  }
}

TEST(NotationPrint, TvmTestFacts) {
  // test_spec_builder (printed strings derived from the printer source).
  EXPECT_EQ(tvm("S[(8,4,2):(4@laneid,1@laneid,1)]"),
            "T.TileLayout(T.S[(8, 4, 2):(4 @ Axis.laneid, 1 @ Axis.laneid, 1)])");
  EXPECT_EQ(tvm("S[1:1] + R[(8,4):(4@laneid,1@laneid)] + 2@warpid"),
            "T.TileLayout(T.S[1:1] + T.R[(8, 4):(4 @ Axis.laneid, 1 @ Axis.laneid)] + 2 @ Axis.warpid)");
  // test_spec_builder: str() of the two spellings is identical.
  EXPECT_EQ(tvm("S[(8,4):('laneid',1)]"), tvm("S[(8,4):(1@laneid,1)]"));
  EXPECT_EQ(tvm("S[(8,):(4@laneid,)] + R[4:1@laneid]"), tvm("S[8:4@laneid] + R[4:1@laneid]"));
  EXPECT_EQ(tvm("S[32:'warpid']"), tvm("S[32:1@warpid]"));
  EXPECT_EQ(tvm("S[1:1] + R[4:'laneid']"), tvm("S[1:1] + R[4:1@laneid]"));
  // test_parser_printer.py::test_roundtrip_layout.
  EXPECT_EQ(tvm("ComposeLayout(3, 3, 3, S[(512,)])"), "T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[512:1]))");
  // test_roundtrip_layout_replica_and_offset: multi-axis offset sorted by name, parenthesised, @m elided.
  EXPECT_EQ(tvm("S[8:4@laneid] + 1@laneid + 2@warpid + 64"),
            "T.TileLayout(T.S[8:4 @ Axis.laneid] + (1 @ Axis.laneid + 64 + 2 @ Axis.warpid))");
}

TEST(NotationPrint, TvmScriptRoundTripFacts) {
  // test_parser_printer.py: script() -> parse -> script() identical and structurally equal.
  for (const char* src :
       {"ComposeLayout(3, 3, 3, S[(64,64,4):(64,1,4096)])", "S[(8,8,8,4,2):(6,4@laneid,2,1@laneid,1)]",
        "S[8:4@laneid]+R[4:1@laneid]", "S[8:4@laneid]+1@laneid", "S[8:4@laneid]+1@laneid+2@warpid+64",
        "S[(1,):(1,)]+R[(8,4):(4@laneid,1@laneid)]+2@warpid"}) {
    const Layout l = parse_layout(src);
    const std::string once = print_layout(l, PrintStyle::kTvm);
    const Layout back = parse_layout(once);
    EXPECT_EQ(back, l) << src;
    EXPECT_EQ(print_layout(back, PrintStyle::kTvm), once) << src;
  }
}

TEST(NotationPrint, DegenerateAndInt64Forms) {
  EXPECT_EQ(print_layout(Layout(TileLayout()), PrintStyle::kTvm), "T.TileLayout.from_iters()");
  EXPECT_EQ(print_layout(Layout(tl({}, {}, {{m, 5}})), PrintStyle::kTvm), "T.TileLayout.from_iters(offset={\"m\": 5})");
  EXPECT_EQ(print_layout(Layout(tl({}, {}, {{warpid, 2}, {laneid, 1}})), PrintStyle::kTvm),
            "T.TileLayout.from_iters(offset={\"laneid\": 1, \"warpid\": 2})");
  EXPECT_EQ(print_layout(Layout(tl({}, {{32, 1, laneid}})), PrintStyle::kTvm),
            "T.TileLayout(T.R[32:1 @ Axis.laneid])");
  // Values outside int32 are int64 literals in TVM.
  EXPECT_EQ(print_layout(Layout(tl({{2, 4294967296, m}}, {}, {{laneid, -3000000000}})), PrintStyle::kTvm),
            "T.TileLayout(T.S[2:T.int64(4294967296)] + T.int64(-3000000000) @ Axis.laneid)");
  EXPECT_EQ(print_layout(Layout(tl({{8, -1, m}, {2, 0, laneid}}, {}, {{m, -4}})), PrintStyle::kTvm),
            "T.TileLayout(T.S[(8, 2):(-1, 0 @ Axis.laneid)] + -4)");
}

// ---------------------------------------------------------------- builder form

TEST(NotationPrint, BuilderForm) {
  auto b = [](const Layout& l) { return print_layout(l); };
  EXPECT_EQ(b(tl({{8, 4, laneid}, {4, 1, m}}, {{2, 4, warpid}}, {{warpid, 5}})), "S[(8,4):(4@laneid,1)] + R[2:4@warpid] + 5@warpid");
  EXPECT_EQ(b(tl({{8, 4, laneid}}, {}, {{laneid, 1}, {warpid, 2}, {m, 64}})), "S[8:4@laneid] + 1@laneid + 64 + 2@warpid");
  EXPECT_EQ(b(compose(3, 3, 3, tl({{512, 1, m}}))), "ComposeLayout(3, 3, 3, S[512:1])");
  EXPECT_EQ(b(compose(0, 3, 3, tl({{64, 1, m}}), false)), "ComposeLayout(0, 3, 3, S[64:1], swizzle_inner=False)");
  EXPECT_EQ(b(tl({}, {{32, 1, laneid}})), "R[32:1@laneid]");
  EXPECT_EQ(b(tl({}, {}, {{m, 5}})), "TileLayout.from_iters(offset={\"m\": 5})");
  EXPECT_EQ(b(TileLayout()), "TileLayout.from_iters()");
  EXPECT_EQ(b(tl({{8, -1, m}}, {}, {{laneid, -2}, {m, 0}})), "S[8:-1] + -2@laneid + 0");
  EXPECT_EQ(b(tl({{2, 4294967296, m}})), "S[2:4294967296]");
}

// ---------------------------------------------------------------- round trip over many layouts

std::vector<Layout> round_trip_layouts() {
  return {
      tl({{8, 4, laneid}, {4, 1, laneid}, {2, 1, m}}),
      tl({{8, 4, laneid}}, {{4, 1, laneid}}),
      tl({{8, 4, laneid}}, {}, {{laneid, 1}}),
      tl({{8, 4, laneid}}, {}, {{laneid, 1}, {warpid, 2}, {m, 64}}),
      tl({{8, 4, laneid}, {2, 1, warpid}, {4, 1, laneid}, {2, 1, m}}, {{2, 4, warpid}}, {{warpid, 5}}),
      tl({{128, 1, TLane}, {64, 1, TCol}}),
      tl({{4, 32, TLane}, {16, 1, TLane}, {32, 1, TCol}}, {}, {{TLane, 16}}),
      tl({{2, 112, TCol}, {128, 1, TLane}, {112, 1, TCol}}),
      tl({{32, 1, TLane}, {4, 1, TCol}}, {{4, 32, TLane}}),
      tl({{4, 4, TCol}, {32, 1, TLane}, {4, 16, TCol}, {4, 1, TCol}}, {{4, 32, TLane}}),
      tl({{1, 1, m}}, {{8, 4, laneid}, {4, 1, laneid}}, {{warpid, 2}}),
      tl({{128, 1, tid_in_wg}, {32, 1, m}}),
      tl({{4, 1, wid_in_wg}, {2, 1, laneid}, {8, 4, laneid}, {32, 1, m}, {2, 2, laneid}}),
      tl({{4, 1, wid_in_wg}, {2, 16, m}, {2, 2, m}, {8, 4, laneid}, {4, 4, m}, {4, 1, laneid}, {2, 1, m}}),
      tl({{2, 8, m}, {8, 4, laneid}}),
      tl({{4096, 1, m}}),
      tl({{2048, 2, m}}),
      tl({{8, -1, m}}),
      tl({{8, -64, m}, {8, 1, m}}, {}, {{m, 448}}),
      tl({{4, 0, m}, {32, 1, m}}),
      tl({{4, 4, TCol}, {32, 1, TLane}, {4, 1, TCol}, {4, 0, TCol}}, {{4, 32, TLane}}),
      tl({{8, 1, m}}, {}, {{laneid, 0}}),
      tl({{8, 1, m}}, {}, {{m, -5}, {laneid, -1}, {TCol, 3}, {TLane, 7}}),
      tl({}, {{32, 1, laneid}}),
      tl({}, {}, {{m, 5}}),
      tl({}, {}, {{laneid, 1}, {bx, 3}}),
      TileLayout(),
      tl({{2, 128, tx}, {128, 1, tx}}, {{2, 256, tx}}, {{tx, 160}}),
      tl({{2, 4, wgid}, {4, 1, wid_in_wg}}),
      tl({{32, 512, F}, {4, 16384, F}, {128, 1, P}, {512, 1, F}}),
      tl({{2, 1, Bank}, {512, 1, F}, {8, 1, P}}),
      tl({{3, 1, cbx}, {64, 1, m}}),
      tl({{2, 4294967296, m}, {3, 1, m}}, {}, {{m, 9000000000}}),
      tl({{1, 1, m}, {1, 1, m}}),
      tl({{64, 1, TLane}, {2, 128, TCol}, {2, 64, TLane}, {128, 1, TCol}}),
      compose(3, 3, 3, tl({{512, 1, m}})),
      compose(0, 3, 3, tl({{64, 1, m}}), false),
      compose(3, 3, 3, tl({{64, 64, m}, {64, 1, m}, {4, 4096, m}})),
      compose(3, 2, 3, tl({{3, 16384, m}, {64, 32, m}, {8, 2048, m}, {32, 1, m}})),
      compose(4, 3, 3, tl({{16384, 1, m}})),
      compose(3, 3, 3, tl({{8, 64, m}, {64, 1, m}}, {}, {{m, 72}})),
      compose(2, 1, 3, tl({{64, 8, m}, {8, 512, m}, {8, 1, m}}), false),
      compose(3, 0, 3, tl({{8, 1, m}}, {{2, 512, m}})),
      compose(5, 3, 3, tl({{49152, 1, m}})),
  };
}

TEST(NotationPrint, RoundTripBothStyles) {
  const std::vector<Layout> layouts = round_trip_layouts();
  ASSERT_GE(layouts.size(), 40u);
  for (const Layout& l : layouts) {
    for (PrintStyle style : {PrintStyle::kBuilder, PrintStyle::kTvm}) {
      const std::string text = print_layout(l, style);
      Layout back;
      ASSERT_NO_THROW(back = parse_layout(text)) << text;
      EXPECT_EQ(back, l) << text;
      EXPECT_EQ(print_layout(back, style), text);
    }
  }
}

// INT64_MIN prints as -9223372036854775808 (both styles, as Python writes it), whose magnitude is
// no int64: the lexer reads a unary '-' and that literal as one value (fuzz_notation found
// S[2:-9223372036854775807-1], from the hostile suite, printing to text that did not parse).
TEST(NotationPrint, Int64MinRoundTrips) {
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  const Layout stride = parse_layout("S[2:-9223372036854775807-1]");
  EXPECT_EQ(stride, Layout(tl({{2, kMin, m}})));
  EXPECT_EQ(print_layout(stride), "S[2:-9223372036854775808]");
  EXPECT_EQ(print_layout(stride, PrintStyle::kTvm), "T.TileLayout(T.S[2:T.int64(-9223372036854775808)])");
  const Layout offset(tl({{8, 1, m}}, {}, {{laneid, kMin}, {m, kMin}}));
  for (const Layout& l : {stride, offset}) {
    for (PrintStyle style : {PrintStyle::kBuilder, PrintStyle::kTvm}) {
      const std::string text = print_layout(l, style);
      Layout back;
      ASSERT_NO_THROW(back = parse_layout(text)) << text;
      EXPECT_EQ(back, l) << text;
    }
  }
  EXPECT_EQ(parse_int_expr("-9223372036854775808"), kMin);
  EXPECT_EQ(parse_int_expr("-0x8000000000000000"), kMin);
  EXPECT_EQ(parse_int_expr("(-9223372036854775808) + 1"), kMin + 1);
  EXPECT_THROW(parse_int_expr("2 * -9223372036854775808 // 2"), InputError) << "overflow is checked per operation";
}

}  // namespace
}  // namespace tirx
