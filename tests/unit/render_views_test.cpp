// The four views place every (element, replica) point where apply() says it is: each test
// checks cells against an independent evaluation (Layout::images / apply, the swizzle formula of
// compose_layout.hpp), plus the marks (collision, out of bounds, witness) and the aggregation.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/render/views.hpp"

namespace tirx::render {
namespace {

const hw::Target& target() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

prove::CheckInput input(const std::string& text, std::optional<std::vector<std::int64_t>> shape = std::nullopt,
                        prove::Scope scope = prove::Scope::kUnknown, int bits = 0) {
  prove::CheckInput in;
  in.text = text;
  in.layout = parse_layout(text, {});
  in.layout.validate();
  in.shape = shape;
  in.scope = scope;
  in.elem_bits = bits;
  in.machine = prove::machine_limits(target());
  in.target = &target();
  return in;
}

RenderOptions view(View v, std::int64_t max = 1024) {
  RenderOptions o;
  o.view = v;
  o.max_rows = o.max_cols = max;
  return o;
}

std::string coord_label(const std::vector<std::int64_t>& c) {
  std::string s;
  for (std::size_t i = 0; i < c.size(); ++i) s += (i ? "," : "") + std::to_string(c[i]);
  return s;
}

bool has_label(const Cell& c, const std::string& l) {
  return std::find(c.labels.begin(), c.labels.end(), l) != c.labels.end();
}

std::int64_t total_entries(const Grid& g) {
  std::int64_t n = 0;
  for (std::int64_t r = 0; r < g.drawn_rows(); ++r)
    for (std::int64_t c = 0; c < g.drawn_cols(); ++c) n += g.drawn(r, c).entries;
  return n;
}

// The README's first apply example (tile_layout.hpp's table): laneid = 4i + (j/2)%4,
// warpid = j/8 + 5 (+4 for the replica copy), m = j%2.
TEST(RenderViews, LogicalViewOfTheEightBySixteenTileListsBothCopies) {
  const auto in = input("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid", {{8, 16}});
  const Grid g = build_view(in, view(View::kLogical));
  ASSERT_EQ(g.rows(), 8);
  ASSERT_EQ(g.cols(), 16);
  EXPECT_FALSE(g.aggregated());
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t j = 0; j < 16; ++j) {
      const Cell& c = g.drawn(i, j);
      const std::int64_t lane = 4 * i + (j / 2) % 4, warp = j / 8 + 5, m = j % 2;
      ASSERT_EQ(c.entries, 2);
      ASSERT_EQ(c.labels.size(), 2u);
      EXPECT_EQ(c.labels[0], "w" + std::to_string(warp) + " l" + std::to_string(lane) + " m" + std::to_string(m));
      EXPECT_EQ(c.labels[1], "+w" + std::to_string(warp + 4) + " l" + std::to_string(lane) + " m" + std::to_string(m));
      // Coloured by thread: the owner is the CTA-linear thread of the base image.
      EXPECT_EQ(c.owner, 32 * warp + lane);
      EXPECT_EQ(c.flags & kReplica, 0u);  // a cell with its base image is not "replica only"
    }
}

// Every element's base image, evaluated by Layout::apply, is in the cell the tmem view puts it.
TEST(RenderViews, TmemViewOfTheTwoStageTilePlacesEveryElementWhereApplySays) {
  const auto in = input("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]", {{2, 128, 112}}, prove::Scope::kTmem, 32);
  const Grid g = build_view(in, view(View::kTmem));
  ASSERT_EQ(g.rows(), 128);
  ASSERT_EQ(g.cols(), 224);
  for (std::int64_t flat = 0; flat < in.layout.size(); flat += 7) {
    const Coord c = in.layout.apply(flat);
    const Cell& cell = g.drawn(c.get(AxisId::TLane), c.get(AxisId::TCol));
    EXPECT_EQ(cell.entries, 1);
    EXPECT_TRUE(has_label(cell, coord_label(prove::logical_coord(flat, in.shape))));
    EXPECT_EQ(cell.flags & (kCollision | kOutOfBounds), 0u);
  }
  EXPECT_EQ(total_entries(g), 2 * 128 * 112);
  // The four 32-lane sub-partitions are marked.
  int major = 0;
  for (const Band& b : g.row_bands) major += b.kind == Band::kMajor;
  EXPECT_EQ(major, target().tmem->lanes / target().tmem_subpartition_lanes());
}

// Layout F sub_slab 1 holds rows 16..31 of each sub-partition only (tmem_datapath.hpp): the
// other lanes are empty.
TEST(RenderViews, TmemViewOfLayoutFSubSlabOneFillsOnlyTheUpperHalfSlabs) {
  const auto in = input("tmem_datapath_layout(\"F\", 64, 32, sub_slab=1)", {{64, 32}}, prove::Scope::kTmem, 32);
  const Grid g = build_view(in, view(View::kTmem));
  ASSERT_EQ(g.rows(), 128);
  const std::int64_t sub = target().tmem_subpartition_lanes();
  for (std::int64_t lane = 0; lane < 128; ++lane) {
    const bool upper = lane % sub >= sub / 2;
    EXPECT_EQ(g.drawn(lane, 0).entries, upper ? 1 : 0) << "lane " << lane;
  }
  for (std::int64_t flat = 0; flat < in.layout.size(); flat += 5) {
    const Coord c = in.layout.apply(flat);
    EXPECT_TRUE(has_label(g.drawn(c.get(AxisId::TLane), c.get(AxisId::TCol)),
                          coord_label(prove::logical_coord(flat, in.shape))));
  }
}

// compose_layout.hpp: 128B swizzle on an (8,64) float16 tile, addr(i,j) = 64i + 8((j/8) ^ i) + j%8;
// column 0 lands in bank (addr*2/4) % 32 = 4i; without the swizzle every row's column 0 is in bank 0.
TEST(RenderViews, SmemViewShowsTheSwizzledBankColumn) {
  const auto sw = input("T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(8,64):(64,1)]))", {{8, 64}}, prove::Scope::kShared, 16);
  const Grid g = build_view(sw, view(View::kSmem));
  ASSERT_EQ(g.rows(), 8);
  ASSERT_EQ(g.cols(), 32);
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t j = 0; j < 64; ++j) {
      const std::int64_t addr = 64 * i + 8 * ((j / 8) ^ i) + j % 8;
      const std::int64_t word = addr * 2 / 4;
      const Cell& c = g.drawn(word / 32, word % 32);
      EXPECT_EQ(c.entries, 2);
      EXPECT_TRUE(has_label(c, std::to_string(i) + "," + std::to_string(j)));
    }
  const auto plain = input("S[(8,64):(64,1)]", {{8, 64}}, prove::Scope::kShared, 16);
  const Grid p = build_view(plain, view(View::kSmem));
  for (std::int64_t i = 0; i < 8; ++i) EXPECT_TRUE(has_label(p.drawn(i, 0), std::to_string(i) + ",0"));
  // The swizzle period (2^(3+3+3) elements = 1024 B = 8 lines) is one band.
  ASSERT_FALSE(g.row_bands.empty());
  EXPECT_EQ(g.row_bands[0].end - g.row_bands[0].begin, 8);
}

// sf_tmem_layout(128, 8, 8): sf_per_mma 8 overlaps the 4 columns of the next 32-row chunk
// (docs/corpus-conversion.md): TCol 4..7 of chunk 0 is TCol 0..3 of chunk 1 (stride 4@TCol).
TEST(RenderViews, CollidingElementsAreMarkedAndTheWitnessCellIsNamed) {
  auto in = input("sf_tmem_layout(128, 8, 8)", std::nullopt, prove::Scope::kTmem, 8);
  const Grid g = build_view(in, view(View::kTmem));
  // Element (row 0, sf 4) and (row 32, sf 0) share lane 0, TCol 4.
  const Cell& shared = g.drawn(0, 4);
  EXPECT_GE(shared.entries, 2);
  EXPECT_TRUE(shared.flags & kCollision);
  EXPECT_FALSE(g.drawn(0, 0).flags & kCollision);
  const auto results = prove::run_all(in);
  const auto it = std::find_if(results.begin(), results.end(), [](const auto& r) { return r.id == "layout.injective"; });
  ASSERT_NE(it, results.end());
  ASSERT_EQ(it->status, prove::Status::kFail);
  const Grid f = build_finding(in, *it, view(View::kAuto));
  const std::int64_t lane = it->witness["cell"]["TLane"], col = it->witness["cell"]["TCol"];
  EXPECT_TRUE(f.drawn(lane, col).flags & kFinding);
  EXPECT_TRUE(f.drawn(lane, col).flags & kCollision);
  ASSERT_FALSE(f.notes.empty());
  EXPECT_NE(f.notes[0].find("layout.injective"), std::string::npos);
}

// smem.bank-conflicts: rows 128 bytes apart, 16-byte accesses: the witness's 32 addresses are
// drawn on their lines and banks, the worst phase's threads marked, the bank shaded.
TEST(RenderViews, BankConflictFindingDrawsTheWitnessThreadsOnTheirBanks) {
  auto in = input("S[(32,64):(64,1)]", {{32, 64}}, prove::Scope::kShared, 16);
  in.dtype = "float16";
  in.access = parse_layout("S[(32,64):(1@laneid,1)]", {});
  in.access_bytes = 16;
  const auto results = prove::run_all(in);
  const auto it = std::find_if(results.begin(), results.end(), [](const auto& r) { return r.id == "smem.bank-conflicts"; });
  ASSERT_NE(it, results.end());
  ASSERT_EQ(it->status, prove::Status::kFail);
  const Grid g = build_finding(in, *it, view(View::kAuto));
  const auto& addr = it->witness["addresses"];
  ASSERT_EQ(addr.size(), 32u);
  std::set<std::int64_t> lines;
  for (const auto& a : addr) lines.insert(a.get<std::int64_t>() / 128);
  ASSERT_EQ(g.rows(), static_cast<std::int64_t>(lines.size()));
  ASSERT_EQ(g.cols(), target().banks);
  for (const auto& t : it->witness["threads"]) {
    const std::int64_t a = addr[t.get<std::size_t>()].get<std::int64_t>();
    const auto row = std::distance(lines.begin(), lines.find(a / 128));
    const Cell& c = g.drawn(row, (a / target().bank_bytes) % target().banks);
    EXPECT_TRUE(c.flags & kFinding);
    EXPECT_TRUE(has_label(c, "t" + std::to_string(t.get<int>())));
  }
  const std::int64_t bank = it->witness["bank"];
  bool shaded = false;
  for (const Band& b : g.col_bands) shaded = shaded || (b.kind == Band::kShade && b.begin == bank && b.end == bank + 1);
  EXPECT_TRUE(shaded);
}

// A kernel check's witness names the op's element as a logical coordinate ("writer": {"element"}).
TEST(RenderViews, KernelWitnessElementIsMarkedOnTheBuffer) {
  const auto in = input("S[(128,384):(1@TLane,1@TCol)]", {{128, 384}}, prove::Scope::kTmem, 32);
  prove::CheckResult r;
  r.id = "kernel.coverage";
  r.status = prove::Status::kFail;
  r.witness = {{"writer", {{"element", {3, 64}}, {"op", "mma"}}}};
  const Grid g = build_finding(in, r, view(View::kAuto));
  EXPECT_TRUE(g.drawn(3, 64).flags & kFinding);
  EXPECT_FALSE(g.drawn(3, 65).flags & kFinding);
  r.witness = {{"writer", {{"element", {3, 999}}}}};  // outside the shape: nothing marked, no throw
  const Grid h = build_finding(in, r, view(View::kAuto));
  EXPECT_FALSE(h.drawn(3, 64).flags & kFinding);
}

TEST(RenderViews, ColumnsPastTheAllocationAreOutOfBounds) {
  auto in = input("S[(64,384):(1@TLane,1@TCol)] + R[2:64@TLane]", {{64, 384}}, prove::Scope::kTmem, 32);
  in.alloc_cols = 256;
  const Grid g = build_view(in, view(View::kTmem));
  EXPECT_TRUE(g.drawn(0, 300).flags & kOutOfBounds);
  EXPECT_FALSE(g.drawn(0, 200).flags & kOutOfBounds);
  // The replica copy (lanes 64..127) holds only replica entries.
  EXPECT_TRUE(g.drawn(64, 0).flags & kReplica);
  EXPECT_FALSE(g.drawn(0, 0).flags & kReplica);
  bool shaded = false;
  for (const Band& b : g.col_bands) shaded = shaded || (b.kind == Band::kShade && b.begin == 256 && b.end == 384);
  EXPECT_TRUE(shaded);
}

TEST(RenderViews, ThreadsViewPutsEachElementInItsThreadsRegisterSlot) {
  const auto in = input("tcgen05_atom_layout(\"32x32b\", (128, 8), \"float32\")", {{128, 8}}, prove::Scope::kLocal, 32);
  const Grid g = build_view(in, view(View::kAuto));  // local + thread axes -> threads
  ASSERT_EQ(g.rows(), 128);
  ASSERT_EQ(g.cols(), 8);
  for (std::int64_t flat = 0; flat < in.layout.size(); ++flat) {
    const Coord c = in.layout.apply(flat);
    EXPECT_TRUE(has_label(g.drawn(c.get(AxisId::tid_in_wg), c.get(AxisId::m)),
                          coord_label(prove::logical_coord(flat, in.shape))));
  }
}

// 128 x 512 TMEM and 2^16 logical elements are drawn as bounded blocks; no point is lost.
TEST(RenderViews, LargeLayoutsAggregateIntoBoundedBlocks) {
  const auto tm = input("S[(128,512):(1@TLane,1@TCol)]", {{128, 512}}, prove::Scope::kTmem, 32);
  const Grid g = build_view(tm, view(View::kTmem, 128));
  EXPECT_EQ(g.block_rows(), 1);
  EXPECT_EQ(g.block_cols(), 4);
  EXPECT_LE(g.drawn_rows() * g.drawn_cols(), 128 * 128);
  EXPECT_EQ(total_entries(g), 128 * 512);
  const auto big = input("S[(256,256):(256,1)]", {{256, 256}});
  const Grid b = build_view(big, view(View::kLogical, 128));
  EXPECT_EQ(b.block_rows(), 2);
  EXPECT_EQ(b.block_cols(), 2);
  EXPECT_EQ(b.drawn(0, 0).entries, 4);
  EXPECT_LE(b.drawn(0, 0).labels.size(), kMaxLabels);
}

TEST(RenderViews, MarksAndLimits) {
  auto in = input("S[(8,8):(8,1)]", {{8, 8}});
  RenderOptions o = view(View::kLogical);
  o.marks.push_back(parse_mark("*,3", "--mark"));
  const Grid g = build_view(in, o);
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t j = 0; j < 8; ++j) EXPECT_EQ(bool(g.drawn(i, j).flags & kMarked), j == 3);
  o.max_points = 63;
  try {
    build_view(in, o);
    FAIL() << "expected render.size";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "render.size");
    EXPECT_NE(e.message().find("64 points"), std::string::npos);
  }
  o.max_points = 64;
  o.marks = {parse_mark("1", "--mark")};  // rank 1 for a rank-2 shape
  EXPECT_THROW(build_view(in, o), InputError);
  EXPECT_THROW(parse_mark("1,x", "--mark"), InputError);
  EXPECT_THROW(build_view(input("S[(8,8):(8,1)]", {{8, 8}}), view(View::kTmem)), InputError);
  EXPECT_THROW(build_view(input("S[(8,8):(8,1)]", {{8, 8}}), view(View::kSmem)), InputError);  // no dtype
  EXPECT_THROW(build_view(input("S[(8,8):(8,1)]", {{4, 8}}), view(View::kLogical)), InputError);  // 32 != 64
}

}  // namespace
}  // namespace tirx::render
