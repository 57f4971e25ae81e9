// The builder notation: S[...] / R[...] / offsets, TileLayout / ComposeLayout / SwizzleLayout
// constructors, from_iters, parameters. Expected values come from TVM's tests
// (../shared/facts/tvm_test_facts.json: test_constructor, test_constructor_multi_term_offset,
// test_spec_builder) and the worked examples of the layout chapter (seeds/).
#include <gtest/gtest.h>

#include "layout_notation_test_util.hpp"

namespace tirx {
namespace {

using test::compose;
using test::tl;
constexpr AxisId m = AxisId::m, laneid = AxisId::laneid, warpid = AxisId::warpid, TLane = AxisId::TLane,
                 TCol = AxisId::TCol, tid_in_wg = AxisId::tid_in_wg;

// ---------------------------------------------------------------- facts: test_constructor

TEST(NotationBuilder, ConstructorIters) {
  // test_layout.py::test_constructor
  EXPECT_EQ(parse_layout("S[(8,4,2):(4@laneid,1@laneid,1)]"),
            Layout(tl({{8, 4, laneid}, {4, 1, laneid}, {2, 1, m}})));
  EXPECT_EQ(parse_layout("S[(2,3,4):(12@m,4@m,1@m)]"), Layout(tl({{2, 12, m}, {3, 4, m}, {4, 1, m}})));
}

TEST(NotationBuilder, ConstructorShardReplicaOffset) {
  const Layout a = parse_layout("S[8:4@laneid] + 1@laneid");
  EXPECT_EQ(a, Layout(tl({{8, 4, laneid}}, {}, {{laneid, 1}})));
  const Layout b = parse_layout("S[8:4@laneid] + R[4:1@laneid]");
  EXPECT_EQ(b, Layout(tl({{8, 4, laneid}}, {{4, 1, laneid}})));
  EXPECT_TRUE(b.tile().offset.empty());
}

// ---------------------------------------------------------------- facts: test_constructor_multi_term_offset

TEST(NotationBuilder, MultiTermOffsets) {
  EXPECT_EQ(parse_layout("64 + S[8:4@laneid] + 1@laneid").tile().offset, test::offsets({{laneid, 1}, {m, 64}}));
  EXPECT_EQ(parse_layout("S[8:4@laneid] + 64").tile().offset, test::offsets({{m, 64}}));
  const Layout chained = parse_layout("S[8:4@laneid] + 1@laneid + 2@warpid + 64");
  EXPECT_EQ(chained.tile().offset, test::offsets({{laneid, 1}, {warpid, 2}, {m, 64}}));
  EXPECT_EQ(parse_layout("S[8:4@laneid] + (1@laneid + 2@warpid + 64)"), chained);
  // A repeated axis adds up; spec + spec merges offsets; the offset may come first.
  EXPECT_EQ(parse_layout("S[8:1] + 1@laneid + 2@laneid + 3").tile().offset, test::offsets({{laneid, 3}, {m, 3}}));
  EXPECT_EQ(parse_layout("(S[8:1] + 5) + (R[2:1@warpid] + 7@warpid)"),
            Layout(tl({{8, 1, m}}, {{2, 1, warpid}}, {{m, 5}, {warpid, 7}})));
  EXPECT_EQ(parse_layout("2@warpid + 64 + S[8:4@laneid]"), Layout(tl({{8, 4, laneid}}, {}, {{warpid, 2}, {m, 64}})));
}

TEST(NotationBuilder, ZeroOffsetIsKept) {
  const Layout l = parse_layout("S[8:4@laneid] + 0@laneid");
  ASSERT_EQ(l.tile().offset.entries().size(), 1u);
  EXPECT_TRUE(l.tile().offset.has(laneid));
  EXPECT_EQ(l.tile().offset.get(laneid), 0);
}

// ---------------------------------------------------------------- facts: test_spec_builder

TEST(NotationBuilder, EquivalentStrideSpellings) {
  EXPECT_EQ(parse_layout("S[(8,4):('laneid',1)]"), parse_layout("S[(8,4):(1@laneid,1)]"));
  EXPECT_EQ(parse_layout("S[(8,):(4@laneid,)] + R[4:1@laneid]"), parse_layout("S[8:4@laneid] + R[4:1@laneid]"));
  EXPECT_EQ(parse_layout("S[32:'warpid']"), parse_layout("S[32:1@warpid]"));
  EXPECT_EQ(parse_layout("S[1:1] + R[4:'laneid']"), parse_layout("S[1:1] + R[4:1@laneid]"));
  // Spec (c): S[8:'laneid'] == S[8:1@laneid]; S[(8,):((4,'laneid'),)] == S[8:4@laneid].
  EXPECT_EQ(parse_layout("S[8:'laneid']"), Layout(tl({{8, 1, laneid}})));
  EXPECT_EQ(parse_layout("S[(8,):((4,'laneid'),)]"), Layout(tl({{8, 4, laneid}})));
  EXPECT_EQ(parse_layout("S[(8,):((4,\"laneid\"),)]"), Layout(tl({{8, 4, laneid}})));
  EXPECT_EQ(parse_layout("S[(8,4):((4,Axis.laneid),1)]"), Layout(tl({{8, 4, laneid}, {4, 1, m}})));
  // Lists work where tuples do (TVM's _to_tuple).
  EXPECT_EQ(parse_layout("S[[8,4]:[4@laneid,1]]"), Layout(tl({{8, 4, laneid}, {4, 1, m}})));
}

TEST(NotationBuilder, ExtentsOnlyIsRowMajorOnM) {
  EXPECT_EQ(parse_layout("S[8]"), Layout(tl({{8, 1, m}})));
  EXPECT_EQ(parse_layout("S[(512,)]"), Layout(tl({{512, 1, m}})));
  EXPECT_EQ(parse_layout("S[8,4,2]"), Layout(tl({{8, 8, m}, {4, 2, m}, {2, 1, m}})));
  EXPECT_EQ(parse_layout("S[(8,4,2)]"), Layout(tl({{8, 8, m}, {4, 2, m}, {2, 1, m}})));
  EXPECT_EQ(parse_layout("S[period,]", {{"period", 512}}), Layout(tl({{512, 1, m}})));
  EXPECT_EQ(parse_layout("S[1:1]"), Layout(tl({{1, 1, m}})));
  EXPECT_EQ(parse_layout("S[(1,):(1,)]"), Layout(tl({{1, 1, m}})));
}

TEST(NotationBuilder, SpecPlusSpecKeepsFirstShardAndLastReplica) {
  // spec + spec: shard = first present, replica = right-hand one if present, else left.
  EXPECT_EQ(parse_layout("S[8:1] + S[4:1@laneid]"), Layout(tl({{8, 1, m}})));
  EXPECT_EQ(parse_layout("R[2:1@warpid] + R[4:1@laneid]"), Layout(tl({}, {{4, 1, laneid}})));
  EXPECT_EQ(parse_layout("S[8:1] + R[2:1@warpid] + S[4:1]"), Layout(tl({{8, 1, m}}, {{2, 1, warpid}})));
  EXPECT_EQ(parse_layout("R[2:1@warpid] + S[8:1]"), Layout(tl({{8, 1, m}}, {{2, 1, warpid}})));
}

TEST(NotationBuilder, EmptyShard) {
  const Layout l = parse_layout("TileLayout(R[32:1@laneid])");
  EXPECT_TRUE(l.tile().shard.empty());
  EXPECT_EQ(l, Layout(tl({}, {{32, 1, laneid}})));
  EXPECT_EQ(parse_layout("R[32:1@laneid]"), l);
}

TEST(NotationBuilder, NegativeAndZeroStrides) {
  EXPECT_EQ(parse_layout("S[(4,8):(-1,0@laneid)] + -3@laneid"),
            Layout(tl({{4, -1, m}, {8, 0, laneid}}, {}, {{laneid, -3}})));
  EXPECT_EQ(parse_layout("S[8:-64]"), Layout(tl({{8, -64, m}})));
}

TEST(NotationBuilder, IntegerArithmeticAndParameters) {
  const Env env{{"BLK_M", 128}, {"BLK_K", 64}, {"PIPE", 4}, {"self.EPI", 32}, {"GemmTile.MMA_N", 256}};
  EXPECT_EQ(parse_layout("S[(PIPE, BLK_M, BLK_K):(BLK_M * BLK_K, BLK_K, 1)]", env),
            Layout(tl({{4, 8192, m}, {128, 64, m}, {64, 1, m}})));
  EXPECT_EQ(parse_layout("S[(BLK_M // 2, 2, BLK_K % 48 + 1):(1@TLane, 64@TLane, 1@TCol)]", env),
            Layout(tl({{64, 1, TLane}, {2, 64, TLane}, {17, 1, TCol}})));
  EXPECT_EQ(parse_layout("S[(self.EPI, GemmTile.MMA_N // 2):(GemmTile.MMA_N // 2, 1)]", env),
            Layout(tl({{32, 128, m}, {128, 1, m}})));
  // Python precedence: '@' binds like '*', unary minus tighter; floor division and modulo.
  EXPECT_EQ(parse_layout("S[8:2*4@laneid] + -7 // 2 + -7 % 3"), Layout(tl({{8, 8, laneid}}, {}, {{m, -2}})));
  EXPECT_EQ(parse_layout("S[8:BLK_M // 2 @ tid_in_wg]", env), Layout(tl({{8, 64, tid_in_wg}})));
  EXPECT_EQ(parse_int_expr("BLK_M * 2 - 1", env), 255);
  EXPECT_EQ(parse_shape("(PIPE, BLK_M, 64)", env), (std::vector<std::int64_t>{4, 128, 64}));
  EXPECT_EQ(parse_shape("BLK_K", env), (std::vector<std::int64_t>{64}));
  EXPECT_EQ(parse_int_expr("0x40 + 0b11 + 1_000"), 1067);
}

// ---------------------------------------------------------------- prefixes, TVM printed form, from_iters

TEST(NotationBuilder, PrefixesAreOptional) {
  const Layout want = tl({{8, 4, laneid}, {4, 1, m}}, {}, {{laneid, 1}});
  EXPECT_EQ(parse_layout("T.TileLayout(T.S[(8, 4):(4 @ Axis.laneid, 1)] + 1 @ Axis.laneid)"), want);
  EXPECT_EQ(parse_layout("TileLayout(S[(8, 4):(4 @ laneid, 1)] + 1 @ laneid)"), want);
  EXPECT_EQ(parse_layout("T.TileLayout(S[(8,4):(4@Axis.laneid,1)] + 1@laneid)"), want);
  EXPECT_EQ(parse_layout("Tx.TileLayout(Tx.S[(8, 4):(4 @ Axis.laneid, 1)] + 1 @ Axis.laneid)"), want);
  EXPECT_EQ(parse_layout("TileLayout(S[(8, 4) : (4@Axis.get('laneid'), 1)] + 1@laneid)"), want);
  EXPECT_EQ(parse_layout("\n  S[(8,4):(4@laneid,1)]\n  + 1@laneid\n"), want);
}

TEST(NotationBuilder, Int64Literals) {
  EXPECT_EQ(parse_layout("T.TileLayout(T.S[T.int64(8):T.int64(4) @ Axis.laneid])"), Layout(tl({{8, 4, laneid}})));
  EXPECT_EQ(parse_layout("S[T.int32(8):1] + T.int64(5000000000)"), Layout(tl({{8, 1, m}}, {}, {{m, 5000000000}})));
}

TEST(NotationBuilder, FromIters) {
  EXPECT_EQ(parse_layout("TileLayout.from_iters(shard=[Iter(8, 4, \"laneid\"), Iter(2, 1, 'm')], "
                         "replica=[Iter(4, 32, Axis.TLane)], offset={\"m\": 5})"),
            Layout(tl({{8, 4, laneid}, {2, 1, m}}, {{4, 32, TLane}}, {{m, 5}})));
  EXPECT_EQ(parse_layout("T.TileLayout.from_iters(offset={\"m\": 5})"), Layout(tl({}, {}, {{m, 5}})));
  EXPECT_EQ(parse_layout("T.TileLayout.from_iters()"), Layout(TileLayout()));
  EXPECT_EQ(parse_layout("TileLayout.from_iters([Iter(4, 64, 'm'), Iter(64, 1, 'm')])"),
            Layout(tl({{4, 64, m}, {64, 1, m}})));
  EXPECT_EQ(parse_layout("TileLayout.from_iters((), (), {'laneid': 1, Axis.warpid: 2})"),
            Layout(tl({}, {}, {{laneid, 1}, {warpid, 2}})));
}

// ---------------------------------------------------------------- ComposeLayout / SwizzleLayout

TEST(NotationBuilder, ComposeLayoutForms) {
  const Layout want = compose(3, 3, 3, tl({{512, 1, m}}));
  EXPECT_EQ(parse_layout("ComposeLayout(3, 3, 3, TileLayout(S[512:1]))"), want);
  EXPECT_EQ(parse_layout("ComposeLayout(3, 3, 3, S[512:1])"), want);
  EXPECT_EQ(parse_layout("ComposeLayout(3, 3, 3, S[(512,)])"), want);
  EXPECT_EQ(parse_layout("T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[512:1]))"), want);
  EXPECT_EQ(parse_layout("ComposeLayout(per_element=3, swizzle_len=3, atom_len=3, tile_layout=S[512:1])"), want);
  EXPECT_EQ(parse_layout("ComposeLayout(3, 3, 3, tile_layout=TileLayout(S[512:1]), swizzle_inner=True)"), want);
  EXPECT_EQ(parse_layout("ComposeLayout(SwizzleLayout(3, 3, 3, swizzle_inner=True), TileLayout(S[512:1]))"), want);
  EXPECT_EQ(parse_layout("ComposeLayout(0, 3, 3, S[64:1], swizzle_inner=False)"),
            Layout(compose(0, 3, 3, tl({{64, 1, m}}), false)));
  EXPECT_EQ(parse_layout("T.ComposeLayout(0, 3, 3, T.TileLayout(T.S[64:1]), swizzle_inner=False)"),
            Layout(compose(0, 3, 3, tl({{64, 1, m}}), false)));
  EXPECT_EQ(parse_layout("ComposeLayout(3, 3, 3, S[(8,64):(64,1)] + 72)"),
            Layout(compose(3, 3, 3, tl({{8, 64, m}, {64, 1, m}}, {}, {{m, 72}}))));
}

TEST(NotationBuilder, BareSwizzleLayoutCoversOnePeriod) {
  // SwizzleLayout alone is a bare swizzle: the identity tile over 2^(M+B+S) elements.
  EXPECT_EQ(parse_layout("SwizzleLayout(per_element=3, swizzle_len=3, atom_len=3)"),
            Layout(compose(3, 3, 3, tl({{512, 1, m}}))));
  EXPECT_EQ(parse_layout("SwizzleLayout(3, 2, 3, swizzle_inner=True)"), Layout(compose(3, 2, 3, tl({{256, 1, m}}))));
  EXPECT_EQ(parse_layout("SwizzleLayout(0, 3, 3, False)"), Layout(compose(0, 3, 3, tl({{64, 1, m}}), false)));
}

TEST(NotationBuilder, ComposeApplyMatchesSpecExamples) {
  // Spec (f) worked examples, evaluated through parsed layouts.
  EXPECT_EQ(parse_layout("ComposeLayout(0, 3, 3, S[64:1], swizzle_inner=False)").apply(29).get(m), 53);
  EXPECT_EQ(parse_layout("ComposeLayout(0, 2, 3, S[32:1])").apply(30).get(m), 29);
  EXPECT_EQ(parse_layout("ComposeLayout(3, 3, 3, S[512:1])").apply(234).get(m), 242);
}

// ---------------------------------------------------------------- seed chapter examples

TEST(NotationSeed, WarpTileWithReplicaAndOffset) {
  const Layout l = parse_layout(
      "TileLayout(\n    S[(8, 2, 4, 2) : (4@laneid, 1@warpid, 1@laneid, 1)]\n    + R[2 : 4@warpid]\n    + 5@warpid\n)");
  EXPECT_EQ(l, Layout(tl({{8, 4, laneid}, {2, 1, warpid}, {4, 1, laneid}, {2, 1, m}}, {{2, 4, warpid}},
                         {{warpid, 5}})));
  const std::int64_t shape[] = {8, 16};
  struct Row { std::int64_t i, j, lane, warp, mm; };
  for (const Row r : {Row{0, 0, 0, 5, 0}, Row{0, 1, 0, 5, 1}, Row{0, 2, 1, 5, 0}, Row{1, 0, 4, 5, 0},
                      Row{0, 8, 0, 6, 0}, Row{7, 15, 31, 6, 1}}) {
    const std::int64_t c[] = {r.i, r.j};
    const Coord got = l.apply(c, shape);
    EXPECT_EQ(got.get(laneid), r.lane) << r.i << "," << r.j;
    EXPECT_EQ(got.get(warpid), r.warp) << r.i << "," << r.j;
    EXPECT_EQ(got.get(m), r.mm) << r.i << "," << r.j;
  }
}

TEST(NotationSeed, TmemTile) {
  const Layout l = parse_layout("TileLayout(\n    S[(2, 128, 112) : (112@TCol, 1@TLane, 1@TCol)]\n)");
  const std::int64_t c[] = {1, 127, 111}, shape[] = {2, 128, 112};
  const Coord got = l.apply(c, shape);
  EXPECT_EQ(got.get(TLane), 127);
  EXPECT_EQ(got.get(TCol), 223);
  EXPECT_EQ(l.tile().span(TCol), 224);
}

TEST(NotationSeed, ScaleAtomWithReplica) {
  const Layout l = parse_layout("TileLayout(S[(32, sf_per_mma) : (1@TLane, 1@TCol)] + R[4 : 32@TLane])",
                                {{"sf_per_mma", 4}});
  EXPECT_EQ(l, Layout(tl({{32, 1, TLane}, {4, 1, TCol}}, {{4, 32, TLane}})));
  // Element (r, s) = (5, 3): lanes 5, 37, 69, 101, column 3.
  const std::int64_t digits[] = {5, 3};
  const std::vector<Coord> imgs = l.images(digits);
  ASSERT_EQ(imgs.size(), 4u);
  for (std::size_t q = 0; q < 4; ++q) {
    EXPECT_EQ(imgs[q].get(TLane), 5 + 32 * static_cast<std::int64_t>(q));
    EXPECT_EQ(imgs[q].get(TCol), 3);
  }
}

TEST(NotationSeed, Swizzle128BOnFloat16Tile) {
  const Layout l = parse_layout(
      "ComposeLayout(\n    per_element=3,\n    swizzle_len=3,\n    atom_len=3,\n"
      "    tile_layout=TileLayout(S[(8, 64) : (64@m, 1@m)]),\n)");
  EXPECT_EQ(l, Layout(compose(3, 3, 3, tl({{8, 64, m}, {64, 1, m}}))));
  const std::int64_t shape[] = {8, 64};
  for (std::int64_t i = 0; i < 8; ++i) {
    const std::int64_t c[] = {i, 0};
    const std::int64_t addr = l.apply(c, shape).get(m);
    EXPECT_EQ(addr, 72 * i);
    EXPECT_EQ((addr / 2) % 32, 4 * i) << "float16 bank of row " << i;  // 2-byte elements, 4-byte banks
  }
}

}  // namespace
}  // namespace tirx
