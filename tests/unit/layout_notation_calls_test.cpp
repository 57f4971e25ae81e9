// Factory calls and method chains in the notation, spelled as TVM spells them. Expected layouts
// are the spec's tables (sections (e), (f), (g) of ../shared/spec/tirx_semantics.md).
#include <gtest/gtest.h>

#include "layout_notation_test_util.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {
namespace {

using test::compose;
using test::parse_error;
using test::tl;
constexpr AxisId m = AxisId::m, laneid = AxisId::laneid, warpid = AxisId::warpid, TLane = AxisId::TLane,
                 TCol = AxisId::TCol, tid_in_wg = AxisId::tid_in_wg, wid_in_wg = AxisId::wid_in_wg;

Layout P(std::string_view s, const Env& env = {}) { return parse_layout(s, env); }

// ---------------------------------------------------------------- factories

TEST(NotationFactories, TmemDatapathLayout) {
  EXPECT_EQ(P("tmem_datapath_layout(\"F\", 64, 32, sub_slab=1)"),
            Layout(tl({{4, 32, TLane}, {16, 1, TLane}, {32, 1, TCol}}, {}, {{TLane, 16}})));
  EXPECT_EQ(P("tmem_datapath_layout('F', 64, 32)"), Layout(tl({{4, 32, TLane}, {16, 1, TLane}, {32, 1, TCol}})));
  EXPECT_EQ(P("tmem_datapath_layout(datapath='D', rows=128, cols=512)"),
            Layout(tl({{128, 1, TLane}, {512, 1, TCol}})));
  EXPECT_EQ(P("tmem_datapath_layout(\"B\", 64, 128)"), Layout(tl({{64, 1, TLane}, {2, 64, TLane}, {64, 1, TCol}})));
  EXPECT_EQ(P("T.tmem_datapath_layout(\"F\", 64, N, 1)", {{"N", 64}}), Layout(tmem_datapath_layout("F", 64, 64, 1)));
}

TEST(NotationFactories, Tcgen05AtomLayout) {
  // ("16x64b", (64, 32), fp32): rep 16, raw iters as TVM builds them.
  EXPECT_EQ(P("tcgen05_atom_layout(\"16x64b\", (64, 32), \"float32\")"),
            Layout(tl({{4, 1, wid_in_wg}, {2, 1, laneid}, {8, 4, laneid}, {16, 1, m}, {2, 2, laneid}})));
  EXPECT_EQ(P("tcgen05_atom_layout('32x32b', (128, 32), 'float32')"), Layout(tl({{128, 1, tid_in_wg}, {32, 1, m}})));
  EXPECT_EQ(P("tcgen05_atom_layout(\"16x256b\", [128, 32], dtype=\"float32\")"),
            Layout(tl({{4, 1, wid_in_wg}, {2, 16, m}, {2, 2, m}, {8, 4, laneid}, {4, 4, m}, {4, 1, laneid}, {2, 1, m}})));
  EXPECT_EQ(P("tcgen05_atom_layout('16x128b', (64, 256), 'float16')"),
            Layout(tcgen05_atom_layout("16x128b", 64, 256, DType::parse("float16"))));
}

TEST(NotationFactories, WgLocalAndDefaultTmem) {
  EXPECT_EQ(P("wg_local_layout(16)"), Layout(tl({{128, 1, tid_in_wg}, {16, 1, m}})));
  EXPECT_EQ(P("wg_local_layout(8, rows=64)"), Layout(tl({{64, 1, tid_in_wg}, {8, 1, m}})));
  EXPECT_EQ(P("default_tmem_layout(128, 512)"), P("tmem_datapath_layout('D', 128, 512)"));
  EXPECT_EQ(P("_default_tmem_layout(64, 32)"), Layout(tl({{64, 1, TLane}, {32, 1, TCol}})));
}

TEST(NotationFactories, ScaleFactorLayouts) {
  EXPECT_EQ(P("sf_tmem_layout(128, 16, 4)"),
            Layout(tl({{4, 4, TCol}, {32, 1, TLane}, {4, 16, TCol}, {4, 1, TCol}}, {{4, 32, TLane}})));
  EXPECT_EQ(P("sf_tmem_layout(128, SF_K=4, sf_per_mma=4, pipe_depth=2)"),
            Layout(tl({{2, 16, TCol}, {4, 4, TCol}, {32, 1, TLane}, {4, 1, TCol}}, {{4, 32, TLane}})));
  EXPECT_EQ(P("sf_tmem_layout(128, SF_K=num_sfq // 32, sf_per_mma=1, sf_reuse=4, pipe_depth=None)", {{"num_sfq", 128}}),
            Layout(tl({{4, 4, TCol}, {32, 1, TLane}, {4, 1, TCol}, {4, 0, TCol}}, {{4, 32, TLane}})));
  EXPECT_EQ(P("sf_smem_layout(128, 8, 4, pipe_depth=3)"),
            Layout(tl({{3, 1024, m}, {4, 4, m}, {32, 16, m}, {2, 512, m}, {4, 1, m}})));
  EXPECT_EQ(P("sf_smem_layout(128, 4, 1, sf_reuse=4)"), Layout(tl({{4, 4, m}, {32, 16, m}, {4, 1, m}, {4, 0, m}})));
}

TEST(NotationFactories, MmaSharedLayout) {
  const Layout fp16_128b = compose(3, 3, 3, tl({{64, 64, m}, {4, 4096, m}, {64, 1, m}}));
  EXPECT_EQ(P("mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (64, 256))"), fp16_128b);
  EXPECT_EQ(P("mma_shared_layout('bfloat16', 3, [64, 256])"), fp16_128b);
  EXPECT_EQ(P("mma_shared_layout('float16', tma_utils.SwizzleMode.SWIZZLE_128B_ATOM, (64, 256))"), fp16_128b);
  EXPECT_EQ(P("mma_shared_layout('float16', SwizzleMode.SWIZZLE_64B_ATOM, (3, 64, 256))"),
            Layout(compose(3, 2, 3, tl({{3, 16384, m}, {64, 32, m}, {8, 2048, m}, {32, 1, m}}))));
  EXPECT_EQ(P("mma_shared_layout('float16', SwizzleMode.SWIZZLE_NONE, (64, 64))"),
            Layout(tl({{64, 8, m}, {8, 512, m}, {8, 1, m}})));
  EXPECT_EQ(P("mma_shared_layout(dtype='uint8', swizzle_mode=3, shape=(128, 128))"),
            Layout(compose(4, 3, 3, tl({{16384, 1, m}}))));
}

TEST(NotationFactories, TmemMmaOperandLayout) {
  const Layout want = tl({{64, 1, TLane}, {2, 128, TCol}, {2, 64, TLane}, {128, 1, TCol}});
  EXPECT_EQ(P("tmem_mma_operand_layout(\"D\", (64, 512), \"float32\", M=64, cta_group=1, ws=True, group=(2, 2, 128))"),
            want);
  EXPECT_EQ(P("tmem_mma_operand_layout('D', (64, 512), 'float32', M=128, cta_group=2, group=(2, 2, 128))"), want);
}

TEST(NotationFactories, ErrorsArePlacedOnTheCallOrArgument) {
  const std::string d1 = "tmem_datapath_layout(\"D\", 128, 32, sub_slab=1)";
  InputError e = parse_error(d1);
  EXPECT_EQ(e.check_id(), "layout.well-formed");
  EXPECT_EQ(e.pos(), 0u);
  const std::string in_sum = "S[4:1] + tmem_datapath_layout('X', 64, 32)";
  e = parse_error(in_sum);
  EXPECT_EQ(e.pos(), in_sum.find("tmem_"));
  const std::string dtype = "mma_shared_layout('float17', 3, (64, 64))";
  e = parse_error(dtype);
  EXPECT_EQ(e.text(), dtype);
  EXPECT_EQ(e.pos(), dtype.find("'float17'"));
  EXPECT_NE(e.message().find("float17"), std::string::npos);
  const std::string mode = "mma_shared_layout('float16', SwizzleMode.SWIZZLE_7B_ATOM, (64, 64))";
  e = parse_error(mode);
  EXPECT_EQ(e.pos(), mode.find("SWIZZLE_7B"));
  const std::string mode_int = "mma_shared_layout('float16', 5, (64, 64))";
  e = parse_error(mode_int);
  EXPECT_EQ(e.check_id(), "swizzle.legal");
  EXPECT_EQ(e.pos(), mode_int.find("5"));
  const std::string shape = "tcgen05_atom_layout('16x64b', (64, 32, 2), 'float32')";
  e = parse_error(shape);
  EXPECT_EQ(e.pos(), shape.find("(64"));
  const std::string positional = "tmem_mma_operand_layout('D', (64, 512), 'float32', 64)";
  e = parse_error(positional);
  EXPECT_NE(e.message().find("at most 3 positional"), std::string::npos);
  EXPECT_NE(e.note().find("'M'"), std::string::npos);
  const std::string kw = "wg_local_layout(16, row=64)";
  e = parse_error(kw);
  EXPECT_EQ(e.pos(), kw.find("row="));
}

// ---------------------------------------------------------------- method chains

TEST(NotationMethods, Tile) {
  EXPECT_EQ(P("S[8:1].tile(S[8:1], [8], [8])"), Layout(tl({{64, 1, m}})));
  EXPECT_EQ(P("TileLayout(S[(2,4):(1,2)]).tile(TileLayout(S[(8,8):(8,1)]), [8,8], [2,4])"),
            Layout(tl({{8, 64, m}, {2, 1, m}, {32, 2, m}})));
  EXPECT_EQ(P("TileLayout(S[(64,128):(128,1)]).tile(S[2:2@warpid] + R[2:1@warpid], (2,1), (64,128))"),
            Layout(tl({{2, 2, warpid}, {8192, 1, m}}, {{2, 1, warpid}})));
  // A chain from the corpus (_R_ATOM.tile(...).tile(...)).
  EXPECT_EQ(P("TileLayout(S[(1, 1):(1, 1)]).tile(TileLayout(S[(8, 4):(4 @ laneid, 1 @ laneid)]), (8, 4), (1, 1))"
              ".tile(TileLayout(S[(2, 1):(1, 1)]), (2, 1), (8, 4))"),
            Layout(tile(tile(tl({{1, 1, m}, {1, 1, m}}), tl({{8, 4, laneid}, {4, 1, laneid}}), std::vector<std::int64_t>{8, 4},
                             std::vector<std::int64_t>{1, 1}),
                        tl({{2, 1, m}, {1, 1, m}}), std::vector<std::int64_t>{2, 1}, std::vector<std::int64_t>{8, 4})));
  EXPECT_EQ(P("ComposeLayout(3,3,3,S[512:1]).tile(S[(8,4):(1,8)], (8,4), (8,64)).canonicalize()"),
            Layout(compose(3, 3, 3, tl({{64, 64, m}, {4, 4096, m}, {64, 1, m}}))));
  EXPECT_EQ(P("S[(8,8):(8,1)].tile_to((16, 8), (8, 8))"), P("S[(8,8):(8,1)].tile(S[(2,1)], (2,1), (8,8))"));
}

TEST(NotationMethods, DirectSumStorageUnpackPackBroadcast) {
  EXPECT_EQ(P("S[(2,2):(4,1)].direct_sum(S[(2,2):(8,2)], [2,2], [2,2])"), Layout(tl({{16, 1, m}})));
  EXPECT_EQ(P("S[(8,4,2):(4@laneid,1@laneid,1)].storage()"), Layout(tl({{2, 1, m}})));
  // Spec (e): S[(8,8):(8,1)].unpack(2) is functionally S[(8,16):(16,1)]; both canonicalize to S[128:1].
  EXPECT_EQ(P("S[(8,8):(8,1)].unpack(2).canonicalize()"), P("S[(8,16):(16,1)].canonicalize()"));
  EXPECT_EQ(P("S[(8,8):(8,1)].unpack(2).canonicalize()"), Layout(tl({{128, 1, m}})));
  EXPECT_EQ(P("S[(8,8):(8,1)].unpack(2)"), Layout(tl({{8, 16, m}, {8, 2, m}, {2, 1, m}})));
  EXPECT_EQ(P("ComposeLayout(3,3,3,S[512:1]).unpack(2).canonicalize()"), Layout(compose(4, 3, 3, tl({{1024, 1, m}}))));
  EXPECT_EQ(P("S[(8,16):(16,1)].pack(2)"), Layout(tl({{8, 8, m}, {8, 1, m}})));
  EXPECT_EQ(P("T.TileLayout(T.S[(S_D, 4, 32):(128, 1, 4)]).unpack(4).broadcast(K_ITERS)", {{"S_D", 2}, {"K_ITERS", 3}}),
            Layout(tl({{2, 512, m}, {4, 4, m}, {32, 16, m}, {4, 1, m}, {3, 0, m}})));
  EXPECT_EQ(P("S[8:1].broadcast(4, 0, 'laneid')"), Layout(tl({{4, 0, laneid}, {8, 1, m}})));
  EXPECT_EQ(P("S[8:1].broadcast(num=4, axis=Axis.laneid)"), Layout(tl({{8, 1, m}, {4, 0, laneid}})));
  EXPECT_EQ(P("S[(8,4):(4,1)].permute_dims([1, 0])"), Layout(tl({{4, 1, m}, {8, 4, m}})));
}

TEST(NotationMethods, Canonicalize) {
  EXPECT_EQ(P("S[(8,8,8,4,2):(512,64,8,2,1)].canonicalize()"), Layout(tl({{4096, 1, m}})));
  EXPECT_TRUE(P("S[(8,8,8,1,1,2,1):(16,4@laneid,2,1,4@laneid,1,1)] + 0@laneid").tile().offset.has(laneid));
  EXPECT_EQ(P("(S[(8,8,8,1,1,2,1):(16,4@laneid,2,1,4@laneid,1,1)] + 0@laneid).canonicalize()"),
            Layout(tl({{8, 16, m}, {8, 4, laneid}, {16, 1, m}})));
  EXPECT_EQ(P("S[(1,1,1,1,1):(1,1,1,1,1)].canonicalize()"), Layout(tl({{1, 1, m}})));
}

TEST(NotationMethods, Slice) {
  EXPECT_EQ(P("S[(8,8):(8,1)].slice([64], [(5,8)])").tile(), tl({{3, 1, m}}, {}, {{m, 5}}));
  EXPECT_EQ(P("ComposeLayout(3,3,3,S[512:1]).slice([512], [(64,128)])"),
            Layout(compose(3, 3, 3, tl({{64, 1, m}}, {}, {{m, 64}}))));
  EXPECT_EQ(P("tmem_datapath_layout('F', 64, 64, 1).slice((64, 64), ((0, 64), (16, 48))).canonicalize()"),
            Layout(tl({{4, 32, TLane}, {16, 1, TLane}, {32, 1, TCol}}, {}, {{TCol, 16}, {TLane, 16}})));
  const std::string bad = "S[(8,8):(8,1)].slice([64], [(5,8), (0,1)])";
  EXPECT_NE(parse_error(bad).message().find("1 dims but the region has 2"), std::string::npos);
}

TEST(NotationMethods, MethodErrors) {
  const std::string outer_compose = "S[8:1].tile(ComposeLayout(3,3,3,S[512:1]), [8], [8])";
  InputError e = parse_error(outer_compose);
  EXPECT_EQ(e.pos(), outer_compose.find("Compose"));
  EXPECT_NE(e.message().find("must be a TileLayout"), std::string::npos);
  const std::string bad_group = "S[(8,8):(8,1)].tile(S[3:1], [3], [7])";
  e = parse_error(bad_group);
  EXPECT_EQ(e.check_id(), "layout.well-formed");
  EXPECT_EQ(e.text(), bad_group);
  const std::string pack = "S[(8,6):(6,1)].pack(4)";
  EXPECT_EQ(parse_error(pack).check_id(), "layout.well-formed");
  const std::string unpack0 = "S[8:1].unpack(0)";
  EXPECT_EQ(parse_error(unpack0).pos(), unpack0.find("0"));
  const std::string extra = "S[8:1].canonicalize(True)";
  EXPECT_NE(parse_error(extra).message().find("at most 0 positional"), std::string::npos);
}

// ---------------------------------------------------------------- factory layouts print and parse back

TEST(NotationFactories, FactoryLayoutsRoundTrip) {
  const char* calls[] = {
      "tmem_datapath_layout('F', 64, 32, sub_slab=1)", "tmem_datapath_layout('G', 32, 128)",
      "tcgen05_atom_layout('16x256b', (128, 32), 'float32')", "tcgen05_atom_layout('16x64b', (64, 8), 'float16')",
      "sf_tmem_layout(256, 16, 4)", "sf_smem_layout(256, 16, 4)",
      "mma_shared_layout('float32', SwizzleMode.SWIZZLE_32B_ATOM, (64, 64))",
      "mma_shared_layout('float4_e2m1fn', 2, (64, 256))", "wg_local_layout(128)",
  };
  for (const char* c : calls) {
    const Layout l = P(c);
    for (PrintStyle style : {PrintStyle::kBuilder, PrintStyle::kTvm}) {
      const std::string text = print_layout(l, style);
      EXPECT_EQ(P(text), l) << c << " -> " << text;
    }
  }
}

}  // namespace
}  // namespace tirx
